import { API_KEY_LIMITS, type ApiRequestLogEntry } from "../../../contracts/api-keys";
import type { Database } from "../../db/database";
import { displayPrefix } from "./api-key-secret";
import type { ApiCaller } from "./authenticate-api-key";

const PATH_MAX = 300;

/** One call made with a key, as its seller will see it (the path without its query). */
export async function recordApiRequest(
  db: Database,
  caller: ApiCaller,
  call: { method: string; url: string; status: number },
  now: Date,
): Promise<void> {
  await db
    .insertInto("api_request_logs")
    .values({
      seller_id: caller.sellerId,
      api_key_id: caller.keyId,
      method: call.method,
      path: (call.url.split("?")[0] ?? "").slice(0, PATH_MAX),
      status: call.status,
      created_at: now,
    })
    .execute();
}

/** The seller's latest calls, newest first, with the key each was made with (revoked ones too). */
export async function latestApiRequests(db: Database, sellerId: string): Promise<ApiRequestLogEntry[]> {
  const rows = await db
    .selectFrom("api_request_logs as log")
    .innerJoin("api_keys as key", "key.id", "log.api_key_id")
    .select(["log.id", "log.method", "log.path", "log.status", "log.created_at", "key.name", "key.lookup_id"])
    .where("log.seller_id", "=", sellerId)
    .orderBy("log.id", "desc")
    .limit(API_KEY_LIMITS.requestLogShown)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    keyName: row.name,
    keyPrefix: displayPrefix(row.lookup_id),
    method: row.method,
    path: row.path,
    status: row.status,
    createdAt: row.created_at.toISOString(),
  }));
}

/**
 * Keeps the log bounded: calls older than 30 days go, and so do keys revoked that long ago (their
 * remaining calls with them).
 */
export async function pruneApiRequestLogs(db: Database, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - API_KEY_LIMITS.requestLogDays * 24 * 60 * 60 * 1000);
  await db.deleteFrom("api_request_logs").where("created_at", "<", cutoff).execute();
  await db.deleteFrom("api_keys").where("revoked_at", "<", cutoff).execute();
}
