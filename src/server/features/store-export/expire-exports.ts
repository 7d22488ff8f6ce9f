import type { JobHandler } from "../../jobs/job-queue";
import { jobKind } from "../../jobs/job-queue";
import type { StoreExportDeps } from "./store-export-deps";

const HOUR_MS = 60 * 60 * 1000;
/** Archives deleted per run (each is one storage delete). */
const BATCH = 100;

/**
 * Housekeeping, hourly: archives whose 7 days are over are deleted and their exports marked expired (the
 * link already answers 410 from the moment it expires). The object goes first: a run that stops between
 * the two deletes it again next time, which is harmless.
 */
export async function deleteExpiredExports(deps: Pick<StoreExportDeps, "db" | "storage">, now: Date) {
  const due = await deps.db
    .selectFrom("store_exports")
    .select(["id", "storage_key"])
    .where("status", "=", "ready")
    .where("expires_at", "<=", now)
    .orderBy("expires_at")
    .limit(BATCH)
    .execute();
  for (const row of due) {
    if (row.storage_key) await deps.storage.delete("store-exports", row.storage_key);
    await deps.db
      .updateTable("store_exports")
      .set({ status: "expired", storage_key: null })
      .where("id", "=", row.id)
      .where("status", "=", "ready")
      .execute();
  }
  return due.length;
}

export const expireStoreExportsHandler = (
  deps: Pick<StoreExportDeps, "db" | "storage">,
): JobHandler<object> => ({
  kind: jobKind<object>("store-export.delete-expired"),
  everyMs: HOUR_MS,
  run: async (_payload, { now }) => {
    await deleteExpiredExports(deps, now);
    return undefined;
  },
});
