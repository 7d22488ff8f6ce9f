import type { Selectable } from "kysely";
import type { ArchiveOrder } from "../../../../contracts/store-archive";
import type { Database } from "../../../db/database";
import type { OrderTable } from "../../../db/schema";
import { afterTimeId, iso, isoOrNull, keysetPages, type PageOptions, recordsOnly, timeIdKey } from "./keyset";
import { postalAddress, taxIdCheck, withdrawalWaiver } from "./shapes";

/** orders.ndjson: every order, one-time sales and membership payments, oldest first. */
export function readOrders(db: Database, sellerId: string, options?: PageOptions) {
  return keysetPages(
    {
      key: timeIdKey,
      fetch: (after, limit) =>
        afterTimeId(
          db.selectFrom("orders").selectAll().where("seller_id", "=", sellerId),
          after,
          limit,
        ).execute(),
      keyOf: (row) => [iso(row.created_at), row.id] as [string, string],
      toPage: recordsOnly(async (rows) => {
        const downloads = await fileDownloadsOf(
          db,
          rows.map((row) => row.id),
        );
        return rows.map((row) => orderRecord(row, downloads.get(row.id) ?? []));
      }),
    },
    options,
  );
}

/** Downloads counted per file, by order (files removed since are left out: their ids are gone). */
async function fileDownloadsOf(db: Database, orderIds: string[]) {
  const rows = await db
    .selectFrom("order_file_downloads")
    .innerJoin("orders", "orders.id", "order_file_downloads.order_id")
    .innerJoin("product_files", (join) =>
      join
        .onRef("product_files.upload_id", "=", "order_file_downloads.upload_id")
        .onRef("product_files.product_id", "=", "orders.product_id"),
    )
    .select([
      "order_file_downloads.order_id",
      "product_files.id as file_id",
      "order_file_downloads.downloads_used",
    ])
    .where("order_file_downloads.order_id", "in", orderIds)
    .orderBy("order_file_downloads.order_id")
    .orderBy("product_files.position")
    .execute();
  const byOrder = new Map<string, { fileId: string; used: number }[]>();
  for (const row of rows) {
    const list = byOrder.get(row.order_id) ?? [];
    list.push({ fileId: row.file_id, used: row.downloads_used });
    byOrder.set(row.order_id, list);
  }
  return byOrder;
}

function orderRecord(row: Selectable<OrderTable>, files: { fileId: string; used: number }[]): ArchiveOrder {
  return {
    id: row.id,
    createdAt: iso(row.created_at),
    productId: row.product_id,
    productTitle: row.product_title,
    membershipId: row.membership_id,
    periodStart: isoOrNull(row.period_start),
    periodEnd: isoOrNull(row.period_end),
    status: row.status,
    refundedAt: isoOrNull(row.refunded_at),
    amountCents: row.amount_cents,
    currency: row.currency,
    settlementCents: row.settlement_cents,
    settlementCurrency: row.settlement_currency,
    discount:
      row.discount_code === null
        ? null
        : { codeId: row.discount_code_id, code: row.discount_code, discountCents: row.discount_cents },
    tax: {
      taxCents: row.tax_cents,
      behavior: row.tax_behavior,
      rate: row.tax_rate,
      type: row.tax_type,
      jurisdiction: row.tax_jurisdiction,
      taxabilityReason: row.taxability_reason,
      reverseCharge: row.reverse_charge,
    },
    buyer: {
      email: row.customer_email,
      name: row.buyer_name,
      address: postalAddress(row.buyer_address),
      country: row.buyer_country,
      state: row.buyer_state,
      businessName: row.buyer_business_name,
      taxId: row.buyer_tax_id,
      taxIdCheck: taxIdCheck(row.buyer_tax_id_check),
      locale: row.buyer_locale,
    },
    withdrawalWaiver: withdrawalWaiver(row.withdrawal_waiver, row.withdrawal_waiver_at),
    dispute: row.dispute_id && row.dispute_status ? { id: row.dispute_id, status: row.dispute_status } : null,
    downloads: { used: row.downloads_used, windowEndsAt: iso(row.download_window_ends_at), files },
    stripe: {
      accountId: row.stripe_account_id,
      checkoutSessionId: row.stripe_session_id,
      paymentIntentId: row.payment_intent_id,
    },
  };
}
