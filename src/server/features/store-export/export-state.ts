import type { Selectable } from "kysely";
import { STORE_EXPORT_RULES, type StoreExport, type StoreExportState } from "../../../contracts/store-export";
import type { Database } from "../../db/database";
import type { StoreExportTable } from "../../db/schema";
import { exportPath, exportToken } from "./export-link";
import type { StoreExportDeps } from "./store-export-deps";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The daily limit: the seller's exports of the last 24 hours that count (failed ones do not), whether
 * one is still queued or building, and when the next may start once `perDay` have.
 */
export async function dailyAllowance(db: Database, sellerId: string, now: Date) {
  const recent = await db
    .selectFrom("store_exports")
    .select(["status", "created_at"])
    .where("seller_id", "=", sellerId)
    .where("status", "!=", "failed")
    .where("created_at", ">", new Date(now.getTime() - DAY_MS))
    .orderBy("created_at")
    .execute();
  const oldest = recent[0];
  return {
    started: recent.length,
    active: recent.some((row) => row.status === "queued" || row.status === "building"),
    nextAllowedAt:
      recent.length >= STORE_EXPORT_RULES.perDay && oldest
        ? new Date(oldest.created_at.getTime() + DAY_MS)
        : null,
  };
}

/** GET /api/store-export: the newest export with its progress or link, and what the daily limit leaves. */
export async function storeExportState(
  deps: Pick<StoreExportDeps, "db" | "appUrl" | "linkKey">,
  sellerId: string,
  now: Date,
): Promise<StoreExportState> {
  const [latest, allowance] = await Promise.all([
    deps.db
      .selectFrom("store_exports")
      .selectAll()
      .where("seller_id", "=", sellerId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst(),
    dailyAllowance(deps.db, sellerId, now),
  ]);
  return {
    latest: latest ? describeExport(deps, latest, now) : null,
    startedToday: allowance.started,
    nextAllowedAt: allowance.nextAllowedAt?.toISOString() ?? null,
  };
}

function describeExport(
  deps: Pick<StoreExportDeps, "appUrl" | "linkKey">,
  row: Selectable<StoreExportTable>,
  now: Date,
): StoreExport {
  // A ready archive past its time is as good as gone, even before housekeeping deletes it.
  const expired = row.status === "expired" || (row.expires_at !== null && row.expires_at <= now);
  const status = row.status === "ready" && expired ? "expired" : row.status;
  return {
    id: row.id,
    status,
    progress: {
      bytesDone: Number(row.bytes_done),
      bytesTotal: Number(row.bytes_total),
      recordsDone: row.records_done,
    },
    sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
    error: row.error,
    createdAt: row.created_at.toISOString(),
    readyAt: row.ready_at?.toISOString() ?? null,
    expiresAt: row.expires_at?.toISOString() ?? null,
    downloadUrl:
      status === "ready" && row.expires_at
        ? `${deps.appUrl}${exportPath(exportToken(deps.linkKey, row.id, row.expires_at))}`
        : null,
  };
}
