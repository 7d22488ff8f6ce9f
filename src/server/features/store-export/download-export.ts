import { STORE_EXPORT_MESSAGES } from "../../../contracts/store-export";
import { AppError } from "../../http/errors";
import { readExportToken } from "./export-link";
import type { StoreExportDeps } from "./store-export-deps";

/** The file name the archive is saved as: the day it was exported. */
export const archiveFileName = (readyAt: Date) => `flatfee-store-${readyAt.toISOString().slice(0, 10)}.zip`;

const expired = () => new AppError("link_expired", 410, STORE_EXPORT_MESSAGES.linkExpired);

/**
 * GET /store-export/{token}: which archive a link opens. The link is signed for one export (like buyers'
 * links, no sign-in needed: it comes by email); a tampered one is a 404, and one past its 7 days, or
 * whose archive housekeeping deleted, a 410 saying how to get a new one.
 */
export async function exportArchiveOf(
  deps: Pick<StoreExportDeps, "db" | "linkKey" | "now">,
  token: string,
): Promise<{ key: string; fileName: string }> {
  const now = deps.now();
  const link = readExportToken(token, deps.linkKey, now);
  if (!link.ok && link.problem === "expired") throw expired();
  if (!link.ok) throw new AppError("link_invalid", 404, STORE_EXPORT_MESSAGES.linkInvalid);
  const row = await deps.db
    .selectFrom("store_exports")
    .select(["status", "storage_key", "ready_at", "expires_at"])
    .where("id", "=", link.exportId)
    .executeTakeFirst();
  if (!row) throw new AppError("link_invalid", 404, STORE_EXPORT_MESSAGES.linkInvalid);
  if (row.status !== "ready" || !row.storage_key || !row.ready_at || !row.expires_at || row.expires_at <= now)
    throw expired();
  return { key: row.storage_key, fileName: archiveFileName(row.ready_at) };
}
