import { downloadFileName } from "../../../contracts/product-files";
import type { BucketName } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import { stampedCopyFor } from "../pdf-stamps";

/** The stored object one download hands out, and the name and type the browser saves it under. */
export interface FileToServe {
  bucket: BucketName;
  key: string;
  fileName: string;
  contentType: string;
}

/**
 * The one place that decides which object a buyer's download of a product file serves: today the
 * file's checked upload as the seller uploaded it. (A per-order copy, e.g. a stamped PDF keyed by
 * order and upload, is decided here too.) Undefined when the upload is gone (the file was removed).
 */
export async function fileToServe(
  db: Database,
  download: { orderId: string; uploadId: string; displayName: string },
): Promise<FileToServe | undefined> {
  const upload = await db
    .selectFrom("uploads")
    .select(["storage_key", "upload_key", "content_type", "original_name"])
    .where("id", "=", download.uploadId)
    .executeTakeFirst();
  if (!upload) return undefined;
  // A product that stamps its PDFs serves this buyer's stamped copy (or asks to wait a moment for it).
  const stamped = await stampedCopyFor(db, download.orderId, download.uploadId);
  return {
    bucket: "product-files",
    key: stamped?.key ?? upload.storage_key ?? upload.upload_key,
    fileName: downloadFileName(download.displayName, upload.original_name),
    contentType: upload.content_type ?? "application/octet-stream",
  };
}
