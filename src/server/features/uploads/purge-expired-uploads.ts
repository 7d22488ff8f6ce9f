import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import { deleteObjectsOf } from "./stored-objects";

const BATCH_SIZE = 200;

/**
 * Removes upload intents whose time ran out (the browser never finished) and any bytes they received.
 * Safe to run from several instances: a row is only removed if it is still pending and expired.
 * Returns how many were removed.
 */
export async function purgeExpiredUploads(db: Database, storage: Storage, now = new Date()): Promise<number> {
  let purged = 0;
  for (;;) {
    const expired = await db
      .selectFrom("uploads")
      .selectAll()
      .where("status", "=", "pending")
      .where("expires_at", "<=", now)
      .orderBy("expires_at")
      .limit(BATCH_SIZE)
      .execute();
    for (const upload of expired) {
      const removed = await db
        .deleteFrom("uploads")
        .where("id", "=", upload.id)
        .where("status", "=", "pending")
        .where("expires_at", "<=", now)
        .executeTakeFirst();
      if (removed.numDeletedRows > 0n) {
        await deleteObjectsOf(storage, upload);
        purged += 1;
      }
    }
    if (expired.length < BATCH_SIZE) return purged;
  }
}
