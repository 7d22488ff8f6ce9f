import { type BuyerPurchase, ORDER_MESSAGES, PURCHASE_RULES } from "../../../contracts/orders";
import { STORE_FALLBACK_NAME } from "../../../contracts/products";
import type { Database } from "../../db/database";
import { downloadPath, downloadToken } from "./buyer-links";

/** An order with what a buyer needs to see about it: the store's name, the product's thumbnail and file. */
export function purchaseQuery(db: Database) {
  return db
    .selectFrom("orders")
    .leftJoin("profiles", "profiles.id", "orders.seller_id")
    .leftJoin("products", "products.id", "orders.product_id")
    .selectAll("orders")
    .select([
      "profiles.store_name",
      "products.cover_thumbnail_url",
      "products.file_name",
      "products.file_size_bytes",
      "products.file_upload_id",
    ]);
}
export type PurchaseRow = Awaited<ReturnType<ReturnType<typeof purchaseQuery>["executeTakeFirstOrThrow"]>>;

/** Why this purchase cannot be downloaded now, or null. */
export function downloadBlocker(row: PurchaseRow, now: Date): string | null {
  if (row.status === "refunded") return ORDER_MESSAGES.refunded;
  if (!row.product_id) return ORDER_MESSAGES.productRemoved;
  if (row.download_window_ends_at <= now) return ORDER_MESSAGES.windowOver;
  if (row.downloads_used >= PURCHASE_RULES.maxDownloads) return ORDER_MESSAGES.limitReached;
  return null;
}

/**
 * The buyer's view of a purchase, with a 24-hour download link when it can be downloaded: a fresh
 * one, or `linkInUse` as it is (a page showing a link must never extend it).
 */
export function toBuyerPurchase(
  row: PurchaseRow,
  linkKey: string,
  now: Date,
  linkInUse?: string,
): BuyerPurchase {
  const blocker = downloadBlocker(row, now);
  return {
    orderId: row.id,
    productId: row.product_id,
    productTitle: row.product_title,
    sellerName: row.store_name ?? STORE_FALLBACK_NAME,
    sellerId: row.seller_id,
    amountCents: row.amount_cents,
    customerEmail: row.customer_email,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    downloadsUsed: row.downloads_used,
    downloadsRemaining: Math.max(0, PURCHASE_RULES.maxDownloads - row.downloads_used),
    downloadWindowEndsAt: row.download_window_ends_at.toISOString(),
    unavailableReason: blocker,
    downloadPath: blocker ? null : downloadPath(linkInUse ?? downloadToken(linkKey, row.id, now)),
    coverThumbnailUrl: row.cover_thumbnail_url ?? null,
  };
}
