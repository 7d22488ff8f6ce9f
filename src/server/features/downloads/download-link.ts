import { sql } from "kysely";
import { ENFORCEMENT_BUYER_MESSAGES } from "../../../contracts/enforcement";
import { type DownloadPage, ORDER_MESSAGES, PURCHASE_RULES } from "../../../contracts/orders";
import { commitChange } from "../../adapters/events/commit-change";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import type { Requester } from "../../http/requester";
import { downloadsRevoked } from "../enforcement";
import {
  downloadBlocker,
  type PurchaseFileRow,
  type PurchaseRow,
  purchaseQuery,
  readDownloadToken,
  toBuyerPurchase,
} from "../orders";
import { fileToServe } from "./file-to-serve";

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

/** GET: what the download page shows (every file with its downloads left). Looking does not count. */
export async function describeDownload(deps: DownloadDeps, token: string, now: Date): Promise<DownloadPage> {
  const row = await orderOfLink(deps, token, now);
  return { purchase: toBuyerPurchase(row, deps.linkKey, now, token) };
}

/**
 * The file a download asks for: by its id, or the only one when the product has one file (older
 * forms and API clients send no id). A file no longer in the product was removed by the seller.
 */
function chosenFile(row: PurchaseRow, fileId: string | undefined): PurchaseFileRow {
  if (fileId === undefined) {
    // Without an id, the one file the purchase lists (a post's attachment is always asked for by id).
    const [only, ...others] = row.files.filter((file) => !file.viaPost);
    if (only && others.length === 0) return only;
    if (!only) throw new AppError("download_unavailable", 403, ORDER_MESSAGES.productRemoved);
    throw new AppError("file_required", 400, ORDER_MESSAGES.chooseFile);
  }
  const file = row.files.find((candidate) => candidate.id === fileId);
  if (!file) throw new AppError("download_unavailable", 403, ORDER_MESSAGES.fileRemoved);
  return file;
}

/**
 * POST: a fresh download of one file. The rule with several files is 3 downloads of each file within
 * the order's 30 days (download-terms.ts). It is counted in one transaction: the order's row is updated
 * first (its total, for the seller, only while it is completed and inside its window, which also
 * serialises the order's downloads against a refund), then the file's counter with one conditional
 * upsert (`downloads_used < 3`), so parallel clicks can never take more than 3 of a file. Then it is
 * logged (the file, the user agent and the country the proxy's header says; never the IP: the dispute
 * evidence lists them, docs/disputes.md) and answered with a storage URL for that one download, valid a minute (see
 * storage-link-gate.ts for what the local driver checks). Range requests resuming it are not new downloads.
 */
async function startDownload(
  deps: DownloadDeps & { events: EventBus },
  token: string,
  fileId: string | undefined,
  requester: Requester,
  now: Date,
) {
  const row = await orderOfLink(deps, token, now);
  const blocker = downloadBlocker(row, now);
  if (blocker) throw new AppError("download_unavailable", 403, blocker);
  // An operator's suspension that revoked downloads (buyers keep them by default: docs/operator.md).
  if (await downloadsRevoked(deps.db, row.seller_id)) {
    throw new AppError("download_unavailable", 403, ENFORCEMENT_BUYER_MESSAGES.downloadsRevoked);
  }
  const file = chosenFile(row, fileId);
  // The object first: a download is only counted when there is a file to hand out.
  const served = await fileToServe(deps.db, {
    orderId: row.id,
    uploadId: file.uploadId,
    displayName: file.name,
  });
  if (!served) throw new AppError("download_unavailable", 403, ORDER_MESSAGES.fileRemoved);
  // Counted, it shows live in the seller's sales table.
  const counted = await commitChange(deps, async (trx, announce) => {
    announce(row.seller_id, { type: "sales.changed" });
    const order = await trx
      .updateTable("orders")
      .set({ downloads_used: sql`downloads_used + 1` })
      .where("id", "=", row.id)
      .where("status", "=", "completed")
      .where("download_window_ends_at", ">", now)
      // Not while disputed or after a lost dispute (docs/disputes.md): the dispute's event may land meanwhile.
      .where((eb) => eb.or([eb("dispute_status", "is", null), eb("dispute_status", "=", "won")]))
      .returning("id")
      .executeTakeFirst();
    if (!order) throw new AppError("download_unavailable", 403, ORDER_MESSAGES.refunded);
    const perFile = await trx
      .insertInto("order_file_downloads")
      .values({ order_id: row.id, upload_id: file.uploadId, downloads_used: 1 })
      .onConflict((conflict) =>
        conflict
          .columns(["order_id", "upload_id"])
          .doUpdateSet({ downloads_used: sql`order_file_downloads.downloads_used + 1` })
          .where("order_file_downloads.downloads_used", "<", PURCHASE_RULES.maxDownloads),
      )
      .returning("downloads_used")
      .executeTakeFirst();
    // Rolls the order's total back with it.
    if (!perFile) throw new AppError("download_unavailable", 403, ORDER_MESSAGES.limitReached);
    const log = await trx
      .insertInto("download_logs")
      .values({
        order_id: row.id,
        upload_id: file.uploadId,
        user_agent: requester.userAgent ?? null,
        country: requester.country ?? null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { downloadsUsed: perFile.downloads_used, downloadId: log.id };
  });
  const url = await deps.storage.signedDownloadUrl(served.bucket, served.key, {
    fileName: served.fileName,
    contentType: served.contentType,
    expiresInSeconds: PURCHASE_RULES.storageUrlSeconds,
    grant: { orderId: row.id, downloadId: counted.downloadId },
  });
  return { url, downloadsRemaining: PURCHASE_RULES.maxDownloads - counted.downloadsUsed };
}

/**
 * One download through a buyer's link (the JSON route and the download page's form): counted and
 * logged by startDownload, and shown live in the seller's sales table.
 */
export async function startCountedDownload(
  deps: DownloadDeps & { events: EventBus; now: () => Date },
  token: string,
  fileId: string | undefined,
  requester: Requester,
) {
  return startDownload(deps, token, fileId, requester, deps.now());
}
