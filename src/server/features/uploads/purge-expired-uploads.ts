import type { ExpressionBuilder } from "kysely";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import type { DB } from "../../db/schema";
import { deleteObjectsOf } from "./stored-objects";

const BATCH_SIZE = 200;

/** A checked file that no product or profile took within this long was abandoned (e.g. a closed form). */
export const UNUSED_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Removes upload intents whose time ran out (the browser never finished), checked files nothing used
 * within a day, and their bytes. Safe to run from several instances: a row is only removed if it still
 * qualifies at delete time. Returns how many were removed.
 */
export async function purgeExpiredUploads(db: Database, storage: Storage, now = new Date()): Promise<number> {
  const unusedBefore = new Date(now.getTime() - UNUSED_UPLOAD_TTL_MS);
  const abandoned = (eb: ExpressionBuilder<DB, "uploads">) =>
    eb.or([
      eb.and([eb("status", "=", "pending"), eb("expires_at", "<=", now)]),
      eb.and([eb("status", "=", "completed"), eb("completed_at", "<=", unusedBefore)]),
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
    if (expired.length < BATCH_SIZE) return purged;
  }
}
