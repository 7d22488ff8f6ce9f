import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { PDF_STAMP_LIMITS, type PdfStampFailure, stampLine } from "../../../contracts/pdf-stamps";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import { enqueueJob, type JobHandler, jobKind } from "../../jobs/job-queue";
import type { CreatedOrder, OrderChangeStep } from "../order-lifecycle";
import { PdfStampRefusal } from "./pdf-file";
import { stampedStream, writeStampUpdate } from "./stamp-pdf";

export const PDF_CONTENT_TYPE = "application/pdf";
/** Transient failures (storage, database) are retried this many times, then the original is served. */
const MAX_ATTEMPTS = 6;
/**
 * Failures that come from the file itself (not from an outage): its next buyers' stamps fail at once
 * with the same reason, without stamping it again, and the edit page marks the file.
 */
export const FILE_FAILURES: PdfStampFailure[] = [
  "encrypted",
  "damaged",
  "too-big",
  "too-many-pages",
  "too-large-copy",
  "too-slow",
  "not-pdf",
];

/** Retry after 30 s, 1 min, 2 min, ... capped at 30 minutes. */
export const stampRetryDelayMs = (attempts: number): number =>
  Math.min(30_000 * 2 ** (attempts - 1), 30 * 60_000);

/** `{original without .pdf}-stamped-{orderId}.pdf`: next to the original, in product-files. */
export const stampedKeyFor = (originalKey: string, orderId: string): string =>
  `${originalKey.replace(/\.[^./]+$/, "")}-stamped-${orderId}.pdf`;

/** Makes one buyer's stamped copy of one PDF (a job of the queue: jobs/job-queue.ts). */
export const makeStampJob = jobKind<{ stampId: number }>("pdf-stamps.make");

/** The job of a queued stamp, in the same transaction: one seller's stamps run one at a time per instance. */
export async function enqueueStamp(trx: Database, stamp: { id: number; seller_id: string }): Promise<void> {
  await enqueueJob(
    trx,
    makeStampJob,
    { stampId: stamp.id },
    { uniqueKey: `pdf-stamp:${stamp.id}`, group: `seller:${stamp.seller_id}` },
  );
}

/**
 * In the order's transaction (OrderChanges): one pending stamp per PDF of a delivered
 * order of a product that stamps, and its job. The work itself happens after commit, in the background.
 */
export async function queuePdfStamps(trx: Database, order: CreatedOrder): Promise<void> {
  if (!order.delivered || !order.productId) return;
  const stamps = await trx
    .insertInto("pdf_stamps")
    .columns(["order_id", "upload_id", "seller_id", "created_at"])
    .expression((eb) =>
      eb
        .selectFrom("product_files")
        .innerJoin("products", "products.id", "product_files.product_id")
        .innerJoin("uploads", "uploads.id", "product_files.upload_id")
        .select([
          eb.val(order.orderId).as("order_id"),
          "product_files.upload_id",
          eb.val(order.sellerId).as("seller_id"),
          eb.val(order.at).as("created_at"),
        ])
        .where("products.id", "=", order.productId!)
        .where("products.stamp_pdfs", "=", true)
        .where("uploads.content_type", "=", PDF_CONTENT_TYPE),
    )
    .onConflict((conflict) => conflict.columns(["order_id", "upload_id"]).doNothing())
    .returning(["id", "seller_id"])
    .execute();
  for (const stamp of stamps) await enqueueStamp(trx, stamp);
}

export interface StampWorkDeps {
  db: Database;
  storage: Storage;
}

/** A stamp as its job finds it; only a pending one is worked on. */
async function pendingStamp(db: Database, stampId: number) {
  return db
    .selectFrom("pdf_stamps")
    .select(["id", "order_id", "seller_id", "stamped_key"])
    .where("id", "=", stampId)
    .where("status", "=", "pending")
    .executeTakeFirst();
}
type PendingStamp = NonNullable<Awaited<ReturnType<typeof pendingStamp>>>;

/**
 * The job of a stamp: the copy, or a failure of the file's own (the original is served), or an error
 * thrown for the queue to retry. After the last try, `kept-failing`.
 */
export function makeStampJobHandler(deps: StampWorkDeps, now: () => Date): JobHandler<{ stampId: number }> {
  return {
    kind: makeStampJob,
    // Each holds a temporary copy of its PDF on disk; one per seller (the group), so a seller with many
    // stamps, or slow ones, leaves the other slot to everyone else.
    concurrency: 2,
    maxAttempts: MAX_ATTEMPTS,
    retryDelayMs: stampRetryDelayMs,
    run: async ({ stampId }) => {
      const stamp = await pendingStamp(deps.db, stampId);
      if (stamp) await makeStamp(deps, stamp, now);
      return undefined;
    },
    gaveUp: async ({ stampId }, error, at) => {
      const stamp = await pendingStamp(deps.db, stampId);
      const message = error instanceof Error ? error.message : String(error);
      if (stamp) await failStamp(deps, stamp, "kept-failing", at, message);
    },
  };
}

/** Makes one stamp: the copy, or a failure (the original is served); other errors are the queue's to retry. */
async function makeStamp(deps: StampWorkDeps, stamp: PendingStamp, now: () => Date): Promise<void> {
  const { db, storage } = deps;
  const source = await db
    .selectFrom("pdf_stamps")
    .innerJoin("orders", "orders.id", "pdf_stamps.order_id")
    .leftJoin("uploads", "uploads.id", "pdf_stamps.upload_id")
    .select([
      "orders.customer_email",
      "orders.status",
      "uploads.id as upload_id",
      "uploads.storage_key",
      "uploads.bucket",
      "uploads.size_bytes",
      "uploads.content_type",
    ])
    .where("pdf_stamps.id", "=", stamp.id)
    .executeTakeFirst();
  // The file was removed or the order refunded meanwhile: there is nothing to make.
  if (!source?.upload_id || !source.storage_key || source.status !== "completed") {
    await forgetStamp(deps, stamp.id, stamp.stamped_key);
    return;
  }
  if (source.content_type !== PDF_CONTENT_TYPE) return failStamp(deps, stamp, "not-pdf", now());
  if ((source.size_bytes ?? 0) > PDF_STAMP_LIMITS.maxBytes) return failStamp(deps, stamp, "too-big", now());
  // A file that could not be stamped for an earlier buyer costs nothing more (free claims repeat it).
  const known = await fileFailure(db, stamp.seller_id, source.upload_id);
  if (known) return failStamp(deps, stamp, known, now(), "the file failed to stamp for an earlier buyer");

  // The key is recorded before anything is written under it, so the janitor can always find it.
  const key = stamp.stamped_key ?? stampedKeyFor(source.storage_key, stamp.order_id);
  if (!stamp.stamped_key) {
    await db.updateTable("pdf_stamps").set({ stamped_key: key }).where("id", "=", stamp.id).execute();
  }
  const dir = await mkdtemp(path.join(tmpdir(), "flatfee-stamp-"));
  try {
    const original = path.join(dir, "original.pdf");
    const update = path.join(dir, "update.bin");
    await pipeline(
      await storage.read(source.bucket ?? "product-files", source.storage_key),
      createWriteStream(original),
    );
    const { pages } = await writeStampUpdate(
      original,
      update,
      stampLine(source.customer_email, stamp.order_id),
    );
    const { sizeBytes } = await storage.write("product-files", key, stampedStream(original, update), {
      contentType: PDF_CONTENT_TYPE,
    });
    const marked = await db
      .updateTable("pdf_stamps")
      .set({
        status: "stamped",
        stamped_size_bytes: sizeBytes,
        pages,
        finished_at: now(),
        last_error: null,
      })
      .where("id", "=", stamp.id)
      .where("status", "=", "pending")
      .returning("id")
      .executeTakeFirst();
    // The janitor removed the stamp meanwhile (its file or order went): the copy goes too.
    if (!marked) await storage.delete("product-files", key);
  } catch (error) {
    if (error instanceof PdfStampRefusal) return failStamp(deps, stamp, error.reason, now(), error.message);
    // The queue logs the failure and tries again after its backoff.
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Why this file of the seller's could not be stamped before, if it was for a reason of its own. */
async function fileFailure(
  db: Database,
  sellerId: string,
  uploadId: string,
): Promise<PdfStampFailure | undefined> {
  const failed = await db
    .selectFrom("pdf_stamps")
    .select("failure")
    .where("seller_id", "=", sellerId)
    .where("upload_id", "=", uploadId)
    .where("status", "=", "failed")
    .where("failure", "in", FILE_FAILURES)
    .limit(1)
    .executeTakeFirst();
  return (failed?.failure ?? undefined) as PdfStampFailure | undefined;
}

/** The original is served from now on, and the seller sees why (edit page, per sale). */
async function failStamp(
  deps: StampWorkDeps,
  stamp: PendingStamp,
  failure: PdfStampFailure,
  now: Date,
  detail?: string,
): Promise<void> {
  await deps.db
    .updateTable("pdf_stamps")
    .set({ status: "failed", failure, finished_at: now, last_error: detail?.slice(0, 500) ?? null })
    .where("id", "=", stamp.id)
    .execute();
  const key = (
    await deps.db.selectFrom("pdf_stamps").select("stamped_key").where("id", "=", stamp.id).executeTakeFirst()
  )?.stamped_key;
  if (key) await deps.storage.delete("product-files", key);
}

/** The stamp's row and its copy (if one was ever written) go. */
async function forgetStamp(deps: StampWorkDeps, id: number, key: string | null): Promise<void> {
  if (key) await deps.storage.delete("product-files", key);
  await deps.db.deleteFrom("pdf_stamps").where("id", "=", id).execute();
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * Maintenance: stamped copies nothing can serve any more are deleted with their rows: the file was
 * removed from its product or the product deleted (its upload row is gone), the order was refunded,
 * or its download window ended a day ago. Object first, then row: a failure leaves the row to retry.
 */
export async function deleteUnusedStampedCopies(db: Database, storage: Storage, now: Date): Promise<number> {
  const unused = await db
    .selectFrom("pdf_stamps")
    .innerJoin("orders", "orders.id", "pdf_stamps.order_id")
    .leftJoin("uploads", "uploads.id", "pdf_stamps.upload_id")
    .select(["pdf_stamps.id", "pdf_stamps.stamped_key"])
    .where((eb) =>
      eb.or([
        eb("uploads.id", "is", null),
        eb("orders.status", "=", "refunded"),
        eb("orders.download_window_ends_at", "<", new Date(now.getTime() - DAY_MS)),
      ]),
    )
    .orderBy("pdf_stamps.id")
    .limit(500)
    .execute();
  for (const stamp of unused) {
    if (stamp.stamped_key) await storage.delete("product-files", stamp.stamped_key);
    await db.deleteFrom("pdf_stamps").where("id", "=", stamp.id).execute();
  }
  return unused.length;
}

/** A delivered order's PDFs are queued for stamping (OrderChanges). */
/** A store import's batch: every delivered order's PDFs of products that stamp, in one statement, then their jobs. */
async function queueImportedPdfStamps(trx: Database, orders: readonly CreatedOrder[]): Promise<void> {
  const delivered = orders
    .filter((order) => order.delivered && order.productId)
    .map((order) => order.orderId);
  if (delivered.length === 0) return;
  const stamps = await trx
    .insertInto("pdf_stamps")
    .columns(["order_id", "upload_id", "seller_id", "created_at"])
    .expression((eb) =>
      eb
        .selectFrom("orders")
        .innerJoin("products", "products.id", "orders.product_id")
        .innerJoin("product_files", "product_files.product_id", "products.id")
        .innerJoin("uploads", "uploads.id", "product_files.upload_id")
        .select(["orders.id", "product_files.upload_id", "orders.seller_id", "orders.created_at"])
        .where("orders.id", "in", delivered)
        .where("products.stamp_pdfs", "=", true)
        .where("uploads.content_type", "=", PDF_CONTENT_TYPE),
    )
    .onConflict((conflict) => conflict.columns(["order_id", "upload_id"]).doNothing())
    .returning(["id", "seller_id"])
    .execute();
  for (const stamp of stamps) await enqueueStamp(trx, stamp);
}

export const pdfStampsStep: OrderChangeStep = {
  created: queuePdfStamps,
  imported: queuePdfStamps,
  importedMany: queueImportedPdfStamps,
};
