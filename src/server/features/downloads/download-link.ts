import { sql } from "kysely";
import { type DownloadPage, ORDER_MESSAGES, PURCHASE_RULES } from "../../../contracts/orders";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import { readDownloadToken } from "../orders/buyer-links";
import { downloadBlocker, purchaseQuery, toBuyerPurchase } from "../orders/buyer-purchase";

export interface DownloadDeps {
  db: Database;
  storage: Storage;
  linkKey: string;
}

/** The order a download link points to; a clear 4xx for a forged, foreign or expired link. */
async function orderOfLink(deps: DownloadDeps, token: string, now: Date) {
  const read = readDownloadToken(token, deps.linkKey, now);
  if (!read.ok && read.problem === "invalid")
    throw new AppError("link_invalid", 400, ORDER_MESSAGES.linkInvalid);
  const row = await purchaseQuery(deps.db).where("orders.id", "=", read.value!).executeTakeFirst();
  if (!row) throw new AppError("link_invalid", 400, ORDER_MESSAGES.linkInvalid);
  if (!read.ok) {
    throw new AppError("link_expired", 410, ORDER_MESSAGES.linkExpired, {
      productId: row.product_id,
      sellerId: row.seller_id,
      email: maskEmail(row.customer_email),
    });
  }
  return row;
}

/** a***@example.com: enough for buyers to recognise their address, not enough to harvest it. */
const maskEmail = (email: string) => email.replace(/^(.)[^@]*/, "$1***");

/** GET: what the download page shows. Looking does not count as a download. */
export async function describeDownload(deps: DownloadDeps, token: string, now: Date): Promise<DownloadPage> {
  const row = await orderOfLink(deps, token, now);
  return {
    purchase: toBuyerPurchase(row, deps.linkKey, now, token),
    fileName: row.file_name ?? null,
    fileSizeBytes: row.file_size_bytes ?? null,
  };
}

/**
 * POST: a fresh download. Counts one of the 3 downloads (one conditional update, so two clicks at
 * once cannot both take the last one), logs it, and answers a storage URL for that one download,
 * valid a minute (long enough to start it; see storage-link-gate.ts for what the local driver checks).
 * Range requests that resume that URL are not new downloads.
 */
export async function startDownload(
  deps: DownloadDeps,
  token: string,
  userAgent: string | undefined,
  now: Date,
) {
  const row = await orderOfLink(deps, token, now);
  const blocker = downloadBlocker(row, now);
  if (blocker) throw new AppError("download_unavailable", 403, blocker);
  // The file first: a download is only counted when there is a file to hand out.
  const file = await deps.db
    .selectFrom("uploads")
    .select(["storage_key", "upload_key", "content_type"])
    .where("id", "=", row.file_upload_id ?? "")
    .executeTakeFirst();
  if (!file) throw new AppError("download_unavailable", 403, ORDER_MESSAGES.productRemoved);
  const counted = await deps.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("orders")
      .set({ downloads_used: sql`downloads_used + 1` })
      .where("id", "=", row.id)
      .where("status", "=", "completed")
      .where("downloads_used", "<", PURCHASE_RULES.maxDownloads)
      .where("download_window_ends_at", ">", now)
      .returning("downloads_used")
      .executeTakeFirst();
    if (!updated) return undefined;
    const log = await trx
      .insertInto("download_logs")
      .values({ order_id: row.id, user_agent: userAgent?.slice(0, 400) ?? null })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { downloadsUsed: updated.downloads_used, downloadId: log.id };
  });
  if (!counted) throw new AppError("download_unavailable", 403, ORDER_MESSAGES.limitReached);
  const url = await deps.storage.signedDownloadUrl("product-files", file.storage_key ?? file.upload_key, {
    fileName: row.file_name ?? "download",
    contentType: file.content_type ?? "application/octet-stream",
    expiresInSeconds: PURCHASE_RULES.storageUrlSeconds,
    grant: { orderId: row.id, downloadId: counted.downloadId },
  });
  return {
    url,
    downloadsRemaining: PURCHASE_RULES.maxDownloads - counted.downloadsUsed,
    sellerId: row.seller_id,
  };
}

/**
 * One download through a buyer's link (the JSON route and the download page's form): counted and
 * logged by startDownload, and shown live in the seller's sales table.
 */
export async function startCountedDownload(
  deps: DownloadDeps & { events: EventBus; now: () => Date },
  token: string,
  userAgent: string | undefined,
) {
  const { sellerId, ...started } = await startDownload(deps, token, userAgent, deps.now());
  await deps.events.publish(sellerId, { type: "sales.changed" });
  return started;
}
