import { STORE_EXPORT_MESSAGES, STORE_EXPORT_RULES } from "../../../contracts/store-export";
import type { Database } from "../../db/database";
import { enqueueJob, type JobHandler, jobKind } from "../../jobs/job-queue";
import { storeArchive } from "./build-archive";
import { exportReadyEmail } from "./export-email";
import { exportPath, exportToken } from "./export-link";
import { progressWriter } from "./progress-writer";
import type { StoreExportDeps } from "./store-export-deps";

const DAY_MS = 24 * 60 * 60 * 1000;

export const buildStoreExportJob = jobKind<{ exportId: string }>("store-export.build");

export const enqueueBuild = (trx: Database, exportId: string) =>
  enqueueJob(trx, buildStoreExportJob, { exportId }, { uniqueKey: `store-export:${exportId}` });

/** Where an export's archive is stored: one key per export, so a run that starts over overwrites it. */
const archiveKey = (sellerId: string, exportId: string) => `${sellerId}/${exportId}.zip`;

/**
 * The job that builds an export (docs/export-format.md). One at a time per instance: an export reads
 * every stored file of a store. A run that dies (a crash, a deploy) leaves its lease to run out and the
 * queue runs it again, from the start: progress is reset and the archive is written again over the same
 * key (storage only shows an object once it is complete). A failed try waits for its retry as queued;
 * after the last, the export is failed with a message the page shows beside "Try again".
 */
export function buildStoreExportHandler(deps: StoreExportDeps): JobHandler<{ exportId: string }> {
  return {
    kind: buildStoreExportJob,
    maxAttempts: 3,
    retryDelayMs: (attempt) => attempt * 30_000,
    run: async ({ exportId }) => {
      await buildStoreExport(deps, exportId);
      return undefined;
    },
    gaveUp: async ({ exportId }) => {
      const failed = await deps.db
        .updateTable("store_exports")
        .set({ status: "failed", error: STORE_EXPORT_MESSAGES.failed })
        .where("id", "=", exportId)
        .where("status", "in", ["queued", "building"])
        .returning("storage_key")
        .executeTakeFirst();
      if (failed?.storage_key) await deps.storage.delete("store-exports", failed.storage_key);
    },
  };
}

async function buildStoreExport(deps: StoreExportDeps, exportId: string): Promise<void> {
  const started = await startBuilding(deps.db, exportId);
  // Ready, failed or expired: an earlier run finished it.
  if (!started) return;
  const exportedAt = deps.now();
  const progress = progressWriter(deps.db, exportId, deps.now);
  try {
    const archive = await storeArchive(deps, started.sellerId, exportedAt, progress);
    const { sizeBytes } = await deps.storage.write("store-exports", started.storageKey, archive, {
      contentType: "application/zip",
    });
    await progress.flush();
    await markReady(deps, exportId, sizeBytes);
  } catch (error) {
    await progress.flush();
    await deps.db
      .updateTable("store_exports")
      .set({ status: "queued" })
      .where("id", "=", exportId)
      .where("status", "=", "building")
      .execute();
    throw error;
  }
}

/** Claims the export for this run, from nothing: its key recorded first, so every failure can delete it. */
async function startBuilding(db: Database, exportId: string) {
  const row = await db
    .selectFrom("store_exports")
    .select("seller_id")
    .where("id", "=", exportId)
    .where("status", "in", ["queued", "building"])
    .executeTakeFirst();
  if (!row) return undefined;
  const storageKey = archiveKey(row.seller_id, exportId);
  const claimed = await db
    .updateTable("store_exports")
    .set({
      status: "building",
      bytes_done: 0,
      bytes_total: 0,
      records_done: 0,
      error: null,
      storage_key: storageKey,
    })
    .where("id", "=", exportId)
    .where("status", "in", ["queued", "building"])
    .executeTakeFirst();
  return claimed.numUpdatedRows > 0n ? { sellerId: row.seller_id, storageKey } : undefined;
}

/** Ready for 7 days, and the creator emailed the link, in one transaction (the email exactly once). */
async function markReady(deps: StoreExportDeps, exportId: string, sizeBytes: number): Promise<void> {
  const readyAt = deps.now();
  const expiresAt = new Date(readyAt.getTime() + STORE_EXPORT_RULES.keepDays * DAY_MS);
  await deps.db.transaction().execute(async (trx) => {
    const ready = await trx
      .updateTable("store_exports")
      .set({ status: "ready", size_bytes: sizeBytes, ready_at: readyAt, expires_at: expiresAt })
      .where("id", "=", exportId)
      .where("status", "=", "building")
      .returning("seller_id")
      .executeTakeFirst();
    if (!ready) return;
    const seller = await trx
      .selectFrom("user")
      .innerJoin("profiles", "profiles.id", "user.id")
      .select(["user.email", "profiles.store_name"])
      .where("user.id", "=", ready.seller_id)
      .executeTakeFirstOrThrow();
    const url = `${deps.appUrl}${exportPath(exportToken(deps.linkKey, exportId, expiresAt))}`;
    await deps.outbox.enqueue(
      exportReadyEmail({ to: seller.email, storeName: seller.store_name, url, expiresAt }),
      trx,
    );
  });
}
