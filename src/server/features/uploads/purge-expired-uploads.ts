import type { ExpressionBuilder } from "kysely";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import type { DB } from "../../db/schema";
import { deleteObjectsOf } from "./stored-objects";

const BATCH_SIZE = 200;

/**
 * A checked file that no product or profile took within this long was abandoned (e.g. a closed form).
 * Files attached to a store import that has not finished are in use: the run makes products of them,
 * however long the creator takes to start it (docs/store-import.md).
 */
export const UNUSED_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Removes upload intents whose time ran out (the browser never finished), checks that never finished
 * (the process stopped), checked files nothing used within a day, and their bytes; then sweeps upload
 * keys whose links are long dead. Safe to run from several instances: a row is only removed if it still
 * qualifies at delete time. Returns how many uploads were removed.
 */
export async function purgeExpiredUploads(db: Database, storage: Storage, now = new Date()): Promise<number> {
  const unusedBefore = new Date(now.getTime() - UNUSED_UPLOAD_TTL_MS);
  const abandoned = (eb: ExpressionBuilder<DB, "uploads">) =>
    eb.or([
      eb.and([eb("status", "in", ["pending", "checking"]), eb("expires_at", "<=", now)]),
      eb.and([
        eb("status", "=", "completed"),
        eb("completed_at", "<=", unusedBefore),
        eb.not(
          eb.exists(
            eb
              .selectFrom("store_import_product_files")
              .innerJoin("store_imports", "store_imports.id", "store_import_product_files.import_id")
              .select("store_import_product_files.upload_id")
              .whereRef("store_import_product_files.upload_id", "=", "uploads.id")
              .where("store_imports.status", "!=", "imported"),
          ),
        ),
      ]),
    ]);
  let purged = 0;
  for (;;) {
    const expired = await db
      .selectFrom("uploads")
      .selectAll()
      .where(abandoned)
      .orderBy("expires_at")
      .limit(BATCH_SIZE)
      .execute();
    for (const upload of expired) {
      const removed = await db
        .deleteFrom("uploads")
        .where("id", "=", upload.id)
        .where(abandoned)
        .executeTakeFirst();
      if (removed.numDeletedRows > 0n) {
        await deleteObjectsOf(storage, upload);
        purged += 1;
      }
    }
    if (expired.length < BATCH_SIZE) break;
  }
  await sweepUploadKeys(db, storage, now);
  return purged;
}

/**
 * Deletes whatever sits at upload keys whose sweep time came: bytes a link wrote after its upload was
 * completed or refused (a signed S3 link cannot be revoked), which no row would ever account for.
 */
async function sweepUploadKeys(db: Database, storage: Storage, now: Date): Promise<void> {
  for (;;) {
    const due = await db
      .selectFrom("upload_key_sweeps")
      .select("upload_key")
      .where("sweep_after", "<=", now)
      .orderBy("sweep_after")
      .limit(BATCH_SIZE)
      .execute();
    for (const { upload_key } of due) {
      await storage.delete("product-files", upload_key);
      await db.deleteFrom("upload_key_sweeps").where("upload_key", "=", upload_key).execute();
    }
    if (due.length < BATCH_SIZE) return;
  }
}

/**
 * For bytes the server writes to product-files for a while (a ZIP being unpacked): the janitor deletes
 * them at `after` if nothing did before, so a process that stops half-way leaves nothing behind.
 */
export async function sweepLater(db: Database, key: string, after: Date): Promise<void> {
  await db
    .insertInto("upload_key_sweeps")
    .values({ upload_key: key, sweep_after: after })
    .onConflict((conflict) => conflict.column("upload_key").doUpdateSet({ sweep_after: after }))
    .execute();
}

/** The object deleted now, and its sweep with it. */
export async function sweepNow(db: Database, storage: Storage, key: string): Promise<void> {
  await storage.delete("product-files", key);
  await db.deleteFrom("upload_key_sweeps").where("upload_key", "=", key).execute();
}
