import { sql } from "kysely";
import { DISPUTE_MESSAGES, disputeWithholdsAccess } from "../../../contracts/disputes";
import { hasMembershipAccess, MEMBERSHIP_MESSAGES } from "../../../contracts/memberships";
import { type BuyerPurchase, ORDER_MESSAGES, PURCHASE_RULES } from "../../../contracts/orders";
import { STORE_FALLBACK_NAME } from "../../../contracts/products";
import { taxLabel } from "../../../contracts/tax";
import type { Database } from "../../db/database";
import { billingDetailsPath, creditNotePdfPath, invoicePdfPath, invoiceToken } from "../invoice-links";
import { downloadPath, downloadToken } from "./buyer-links";
import { orderTaxView } from "./order-tax-view";

/** One of a purchase's files as read with it: the product's current file and this order's downloads of it. */
export interface PurchaseFileRow {
  id: string;
  name: string;
  originalName: string;
  uploadId: string;
  sizeBytes: number | null;
  downloadsUsed: number;
  /**
   * A membership period's file that is not one of the tier's but attached to a published post the tier's
   * members see: downloadable like the tier's files (through the post), not listed with them.
   */
  viaPost: boolean;
}

/**
 * The product's current files, in order, each with this order's downloads of it (3 per file): one JSON
 * array per order, read in the same statement, so a library of 500 purchases is still one query. A
 * product's later files are there for past buyers at once; a removed one is gone for everyone.
 */
const purchaseFiles = sql<PurchaseFileRow[]>`coalesce((
  select json_agg(json_build_object(
    'id', product_files.id,
    'name', product_files.display_name,
    'originalName', uploads.original_name,
    'uploadId', product_files.upload_id,
    'sizeBytes', uploads.size_bytes,
    'downloadsUsed', coalesce(order_file_downloads.downloads_used, 0),
    'viaPost', access.via_post
  ) order by product_files.position)
  from product_files
  join uploads on uploads.id = product_files.upload_id
  left join order_file_downloads
    on order_file_downloads.order_id = orders.id and order_file_downloads.upload_id = product_files.upload_id
  -- A membership's period gives the files of the member's tier...
  cross join lateral (select orders.membership_id is not null and not exists (
      select 1 from memberships
      join membership_tier_files on membership_tier_files.tier_id = memberships.tier_id
      where memberships.id = orders.membership_id
        and membership_tier_files.product_file_id = product_files.id
    ) as via_post) as access
  where product_files.product_id = orders.product_id
    -- ...and those attached to the published posts the tier's members see.
    and (not access.via_post or exists (
      select 1 from memberships
      join membership_post_tiers on membership_post_tiers.tier_id = memberships.tier_id
      join membership_posts
        on membership_posts.id = membership_post_tiers.post_id and membership_posts.published_at is not null
      join membership_post_files
        on membership_post_files.post_id = membership_posts.id
      where memberships.id = orders.membership_id
        and membership_post_files.product_file_id = product_files.id
    ))
), '[]'::json)`;

/** An order with what a buyer needs to see about it: the store's name, the product's thumbnail and files. */
export function purchaseQuery(db: Database) {
  return db
    .selectFrom("orders")
    .leftJoin("profiles", "profiles.id", "orders.seller_id")
    .leftJoin("products", "products.id", "orders.product_id")
    .leftJoin("license_keys", "license_keys.order_id", "orders.id")
    .leftJoin("memberships", "memberships.id", "orders.membership_id")
    .selectAll("orders")
    .select([
      "profiles.store_name",
      "products.cover_thumbnail_url",
      purchaseFiles.as("files"),
      "license_keys.key as license_key",
      "license_keys.disabled_at as license_disabled_at",
      "memberships.status as membership_status",
      "memberships.current_period_end as membership_period_end",
      "memberships.past_due_since as membership_past_due_since",
      "memberships.access_revoked_at as membership_revoked_at",
      // Paid orders have an invoice (features/invoices), and a credit note once refunded.
      sql<boolean>`exists (select 1 from invoices where invoices.order_id = orders.id and invoices.kind = 'invoice')`.as(
        "has_invoice",
      ),
      sql<boolean>`exists (select 1 from invoices where invoices.order_id = orders.id and invoices.kind = 'credit_note')`.as(
        "has_credit_note",
      ),
    ]);
}
export type PurchaseRow = Awaited<ReturnType<ReturnType<typeof purchaseQuery>["executeTakeFirstOrThrow"]>>;

/** Why this purchase cannot be downloaded now, or null. */
export function downloadBlocker(row: PurchaseRow, now: Date): string | null {
  if (row.status === "refunded") return ORDER_MESSAGES.refunded;
  // A disputed sale's downloads wait for the bank's decision (docs/disputes.md): back if won, not if lost.
  if (row.dispute_status === "open") return DISPUTE_MESSAGES.buyerSuspended;
  if (row.dispute_status === "lost") return DISPUTE_MESSAGES.buyerLost;
  if (!row.product_id) return ORDER_MESSAGES.productRemoved;
  if (row.membership_id) return membershipBlocker(row, now);
  if (row.download_window_ends_at <= now) return ORDER_MESSAGES.windowOver;
  // The 3 downloads count per file (PURCHASE_RULES): a file that used them up says so on its own.
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
    currency: row.currency,
    customerEmail: row.customer_email,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    downloadsUsed: row.downloads_used,
    // A post's attachments show with their post (library-memberships.ts), not as the period's files.
    files: row.files
      .filter((file) => !file.viaPost)
      .map((file) => ({
        id: file.id,
        name: file.name,
        sizeBytes: file.sizeBytes === null ? null : Number(file.sizeBytes),
        downloadsUsed: file.downloadsUsed,
        downloadsRemaining: Math.max(0, PURCHASE_RULES.maxDownloads - file.downloadsUsed),
      })),
    downloadWindowEndsAt: row.download_window_ends_at.toISOString(),
    unavailableReason: blocker,
    downloadPath: blocker ? null : downloadPath(linkInUse ?? downloadToken(linkKey, row.id, now)),
    coverThumbnailUrl: row.cover_thumbnail_url ?? null,
    // A refunded purchase's key no longer verifies: it is not shown as if it did.
    licenseKey:
      row.license_key && row.status === "completed"
        ? {
            key: row.license_key,
            disabled: row.license_disabled_at !== null || disputeWithholdsAccess(row.dispute_status),
          }
        : null,
    tax: buyerTaxOf(row),
    withdrawalWaiver: row.withdrawal_waiver,
    invoice: row.has_invoice ? invoiceLinks(linkKey, row.id, row.has_credit_note, now) : null,
  };
}

/** A paid purchase's signed invoice links (docs/tax-and-invoices.md). */
function invoiceLinks(linkKey: string, orderId: string, credited: boolean, now: Date) {
  const token = invoiceToken(linkKey, orderId, now);
  return {
    pdfPath: invoicePdfPath(token),
    creditNotePath: credited ? creditNotePdfPath(token) : null,
    billingPath: billingDetailsPath(token),
  };
}

/** The purchase's tax line, from the order's columns (order-tax-view.ts); null without tax. */
function buyerTaxOf(row: PurchaseRow): BuyerPurchase["tax"] {
  const tax = orderTaxView(row);
  const label = tax && taxLabel(tax);
  return tax && label ? { taxCents: tax.taxCents, label } : null;
}

/**
 * A membership's period: its files while the membership gives access (the one rule, in contracts), each
 * with its downloads per period, and not past the period (and its grace days) it paid for.
 */
function membershipBlocker(row: PurchaseRow, now: Date): string | null {
  const access =
    row.membership_status !== null &&
    row.membership_period_end !== null &&
    hasMembershipAccess(
      {
        status: row.membership_status,
        current_period_end: row.membership_period_end,
        past_due_since: row.membership_past_due_since,
        access_revoked_at: row.membership_revoked_at,
      },
      now,
    );
  if (!access || row.download_window_ends_at <= now) return MEMBERSHIP_MESSAGES.noAccess;
  return null;
}
