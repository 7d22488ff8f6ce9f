import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import {
  BYTES_PER_MB,
  type CompletedUpload,
  checkFileChoice,
  type FileChoiceProblem,
  MAX_PRODUCT_FILE_MB,
  STORAGE_QUOTA_BYTES,
  UPLOAD_MESSAGES,
} from "../../../contracts/uploads";
import { ObjectTooLargeError } from "../../adapters/storage/storage";
import { AppError } from "../../http/errors";
import { CHECKING_GRACE_MS, type CompleteUploadDeps, discard, recordCompleted } from "./complete-upload";
import { inspectProductFile, invalidFile } from "./inspect-content";
import { lockSellerUploads, storageUsedBytes } from "./queries";
import { storageFullAnswer } from "./storage-full";
import { describeCompletedUpload } from "./stored-objects";
import { cleanFileName, keyExtension, newObjectKey } from "./upload-keys";

/** A product file the server itself reads from somewhere (an entry of a ZIP a creator uploaded). */
export interface StreamedProductFile {
  /** The name as found (folders are dropped, as a browser's name is cleaned). */
  name: string;
  /** The size its source announces (a ZIP entry's uncompressed size): checked and reserved first. */
  sizeBytes: number;
  body: Readable;
}

/**
 * What the checks made before a byte is written would refuse (the cleaned name's format or a program's
 * extension, an empty file, over 250 MB): callers with many files ask for each first, so none is written
 * when one would be refused.
 */
export function productFileProblem(file: { name: string; sizeBytes: number }): FileChoiceProblem | undefined {
  return checkFileChoice("product-file", { name: cleanFileName(file.name), size: file.sizeBytes, type: "" });
}

/**
 * A product file that reaches the server as a stream instead of through an upload link, kept exactly as
 * a browser's upload ends up (docs/files.md): the name cleaned and checked (format, program names, empty,
 * 250 MB) and the announced size reserved in the seller's quota, before a byte is written; then the bytes
 * streamed to a fresh key (never past 250 MB), the real size held to the announced one, and the content
 * checked like any uploaded file (real format, programs, ZIPs inside, EICAR, the virus scanner). The row
 * is recorded as 'checking' with its key before the write, so a crash leaves nothing the janitor does not
 * find. Any refusal deletes the bytes and the row. The caller checks that the seller may keep product
 * files (assertCanManageProducts), as creating an upload intent does.
 */
export async function storeStreamedProductFile(
  deps: CompleteUploadDeps,
  sellerId: string,
  file: StreamedProductFile,
  now: Date,
): Promise<CompletedUpload> {
  const fileName = cleanFileName(file.name);
  const problem = productFileProblem(file);
  if (problem) {
    file.body.destroy();
    throw new AppError(problem.code, 400, problem.message);
  }
  const key = newObjectKey(sellerId, keyExtension(fileName), now);
  const claimed = await deps.db
    .transaction()
    .execute(async (trx) => {
      await lockSellerUploads(trx, sellerId);
      const usedBytes = await storageUsedBytes(trx, sellerId);
      if (usedBytes + file.sizeBytes > STORAGE_QUOTA_BYTES)
        throw new AppError("storage_limit_reached", 400, UPLOAD_MESSAGES.storageLimitReached(usedBytes));
      return trx
        .insertInto("uploads")
        .values({
          id: randomUUID(),
          seller_id: sellerId,
          purpose: "product-file",
          status: "checking",
          original_name: fileName,
          declared_size_bytes: file.sizeBytes,
          declared_type: "",
          // No link is ever signed for it: the key it is written to is its only key.
          upload_key: key,
          bucket: "product-files",
          storage_key: key,
          expires_at: new Date(now.getTime() + CHECKING_GRACE_MS),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    })
    .catch((error: unknown) => {
      file.body.destroy();
      throw error;
    });
  try {
    let sizeBytes: number;
    try {
      ({ sizeBytes } = await deps.storage.write("product-files", key, file.body, {
        maxBytes: MAX_PRODUCT_FILE_MB * BYTES_PER_MB,
      }));
    } catch (error) {
      if (error instanceof ObjectTooLargeError)
        throw new AppError("file_too_large", 400, UPLOAD_MESSAGES.productFileTooLarge(file.sizeBytes));
      throw error;
    }
    if (sizeBytes !== file.sizeBytes)
      throw invalidFile(
        `The file received (${sizeBytes} bytes) is not the size announced (${file.sizeBytes} bytes).`,
      );
    const object = { bucket: "product-files" as const, key, sizeBytes };
    const { contentType } = await inspectProductFile(
      deps.storage,
      object,
      { name: fileName, type: "" },
      deps.virusScanner,
    );
    const completed = await recordCompleted(deps.db, claimed, { sizeBytes, contentType }, now);
    return describeCompletedUpload(deps.storage, completed);
  } catch (error) {
    await discard(deps, claimed).catch(() => {});
    throw storageFullAnswer(error);
  }
}
