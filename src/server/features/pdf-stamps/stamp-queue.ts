import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { sql } from "kysely";
import type { Logger } from "pino";
import { PDF_STAMP_LIMITS, type PdfStampFailure, stampLine } from "../../../contracts/pdf-stamps";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import type { CreatedOrder } from "../orders/order-changes";
import { PdfStampRefusal } from "./pdf-file";
import { stampedStream, writeStampUpdate } from "./stamp-pdf";

export const PDF_CONTENT_TYPE = "application/pdf";
/** A stamp being made is leased this long; a crashed instance's work is taken up again after it. */
const LEASE_MS = 5 * 60_000;
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

/**
 * In the order's transaction (orders/order-changes.ts): one pending stamp per PDF of a delivered
 * order of a product that stamps. The work itself happens after commit, in the background.
 */
export async function queuePdfStamps(trx: Database, order: CreatedOrder): Promise<void> {
  if (!order.delivered || !order.productId) return;
  await trx
    .insertInto("pdf_stamps")
    .columns(["order_id", "upload_id", "seller_id", "created_at", "next_attempt_at"])
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
          eb.val(order.at).as("next_attempt_at"),
        ])
        .where("products.id", "=", order.productId!)
        .where("products.stamp_pdfs", "=", true)
        .where("uploads.content_type", "=", PDF_CONTENT_TYPE),
    )
    .onConflict((conflict) => conflict.columns(["order_id", "upload_id"]).doNothing())
    .execute();
}

export interface StampWorkDeps {
  db: Database;
  storage: Storage;
  log: Pick<Logger, "warn" | "error">;
}

/**
 * Leases the oldest due stamp of a seller not in `busySellers` (SKIP LOCKED: instances never take the
 * same one) and counts the attempt up front, so a stamp that crashes its instance every time still
 * runs out of attempts. The worker passes the sellers it is stamping for: one seller's queue never
 * holds more than one of its slots, whatever their stamps cost.
 */
export async function claimNextStamp(db: Database, now: Date, busySellers: readonly string[] = []) {
  return db
    .updateTable("pdf_stamps")
    .set({ next_attempt_at: new Date(now.getTime() + LEASE_MS), attempts: sql`attempts + 1` })
    .where(
      "id",
      "=",
      db
        .selectFrom("pdf_stamps")
        .select("id")
        .where("status", "=", "pending")
        .where("next_attempt_at", "<=", now)
        .$if(busySellers.length > 0, (query) => query.where("seller_id", "not in", busySellers))
        .orderBy("next_attempt_at")
        .orderBy("id")
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .returning(["id", "order_id", "upload_id", "seller_id", "attempts", "stamped_key"])
    .executeTakeFirst();
}

export type ClaimedStamp = NonNullable<Awaited<ReturnType<typeof claimNextStamp>>>;

/** Makes one claimed stamp: the copy, or a failure (the original is served), or a retry later. */
export async function makeStamp(deps: StampWorkDeps, stamp: ClaimedStamp, now: () => Date): Promise<void> {
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
    await retryLater(deps, stamp, error, now());
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
  stamp: ClaimedStamp,
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

async function retryLater(
  deps: StampWorkDeps,
  stamp: ClaimedStamp,
  error: unknown,
  now: Date,
): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  deps.log.warn({ err: error, stampId: stamp.id, attempts: stamp.attempts }, "PDF stamp failed, will retry");
  if (stamp.attempts >= MAX_ATTEMPTS) return failStamp(deps, stamp, "kept-failing", now, message);
  await deps.db
    .updateTable("pdf_stamps")
    .set({
      next_attempt_at: new Date(now.getTime() + stampRetryDelayMs(stamp.attempts)),
      last_error: message.slice(0, 500),
    })
    .where("id", "=", stamp.id)
    .execute();
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
