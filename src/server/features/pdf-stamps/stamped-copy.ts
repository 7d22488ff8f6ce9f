import { PDF_STAMP_MESSAGES } from "../../../contracts/pdf-stamps";
import { type Database, inTransaction } from "../../db/database";
import { AppError } from "../../http/errors";
import { enqueueStamp, PDF_CONTENT_TYPE } from "./stamp-queue";

/**
 * How long a download waits for a buyer's stamped copy (answering "try again in a few seconds")
 * before the original is served instead. Stamping normally ends within seconds of the sale; this
 * only matters when the queue is stuck, and then buyers still get their file.
 */
export const PREPARING_MS = 10 * 60_000;

/** The object to serve instead of the original: the buyer's stamped copy. */
export interface StampedCopy {
  key: string;
  sizeBytes: number | null;
}

/**
 * Which bytes of a PDF this order's buyer downloads, decided where the download path picks the file to
 * serve (before a download is counted):
 * - the product doesn't stamp, or the file is not a PDF: undefined (the original);
 * - stamped: the stamped copy;
 * - not stamped yet: a 409 asking to try again in a moment (nothing is counted), for up to 10 minutes
 *   after the stamp was queued; a file added to the product after the sale, or stamping turned on
 *   after it, is queued here, on the first download;
 * - stamping failed, or is taking longer than that: undefined (the original; the seller is told).
 */
export async function stampedCopyFor(
  db: Database,
  orderId: string,
  uploadId: string,
  now: Date = new Date(),
): Promise<StampedCopy | undefined> {
  const row = await db
    .selectFrom("orders")
    .innerJoin("products", "products.id", "orders.product_id")
    .innerJoin("uploads", (join) => join.on("uploads.id", "=", uploadId))
    .leftJoin("pdf_stamps", (join) =>
      join.onRef("pdf_stamps.order_id", "=", "orders.id").on("pdf_stamps.upload_id", "=", uploadId),
    )
    .select([
      "products.stamp_pdfs",
      "orders.seller_id",
      "uploads.content_type",
      "pdf_stamps.status",
      "pdf_stamps.stamped_key",
      "pdf_stamps.stamped_size_bytes",
      "pdf_stamps.created_at",
    ])
    .where("orders.id", "=", orderId)
    .executeTakeFirst();
  if (!row?.stamp_pdfs || row.content_type !== PDF_CONTENT_TYPE) return undefined;
  if (row.status === "stamped" && row.stamped_key) {
    return {
      key: row.stamped_key,
      sizeBytes: row.stamped_size_bytes === null ? null : Number(row.stamped_size_bytes),
    };
  }
  if (row.status === "failed") return undefined;
  let queuedAt = row.created_at;
  if (!row.status) {
    const sellerId = row.seller_id;
    await inTransaction(db, async (trx) => {
      const stamp = await trx
        .insertInto("pdf_stamps")
        .values({ order_id: orderId, upload_id: uploadId, seller_id: sellerId, created_at: now })
        .onConflict((conflict) => conflict.columns(["order_id", "upload_id"]).doNothing())
        .returning(["id", "seller_id"])
        .executeTakeFirst();
      if (stamp) await enqueueStamp(trx, stamp);
    });
    queuedAt = now;
  }
  if (queuedAt && now.getTime() - queuedAt.getTime() < PREPARING_MS) {
    // download_unavailable: the download page shows the message like its other refusals.
    throw new AppError("download_unavailable", 409, PDF_STAMP_MESSAGES.preparing);
  }
  return undefined;
}
