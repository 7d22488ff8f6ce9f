import type { Selectable } from "kysely";
import {
  type ApiSale,
  type ApiSalePage,
  type ApiSalesQuery,
  parseApiDate,
} from "../../../contracts/seller-api";
import type { Database } from "../../db/database";
import { pageLimit } from "../../db/page-limit";
import type { OrderTable } from "../../db/schema";
import { notFound } from "../../http/errors";
import { decodeCursor, encodeCursor } from "../../http/keyset-cursor";
import { invoiceRefsOfOrders } from "../invoices";
import { saleLicenseOf } from "../licenses";
import { downloadsAllowed, ORDER_TAX_COLUMNS, orderTaxView, saleDisputeOf, saleFileCount } from "../orders";

const saleColumns = [
  "id",
  "product_id",
  "product_title",
  "customer_email",
  "amount_cents",
  "currency",
  "settlement_cents",
  "settlement_currency",
  "status",
  "created_at",
  "refunded_at",
  "downloads_used",
  "download_window_ends_at",
  "discount_code",
  "discount_cents",
  "membership_id",
  "period_start",
  "period_end",
  "dispute_id",
  "dispute_status",
  "imported_from",
  ...ORDER_TAX_COLUMNS,
] as const;
type SaleRow = Pick<Selectable<OrderTable>, (typeof saleColumns)[number]> &
  Parameters<typeof saleLicenseOf>[0] & { file_count: string | null };

/** The seller's orders with their license key (left-joined: null when the product issues none). */
const salesOf = (db: Database, sellerId: string) =>
  db
    .selectFrom("orders")
    .leftJoin("license_keys", "license_keys.order_id", "orders.id")
    .select(saleColumns.map((column) => `orders.${column}` as const))
    .select([
      "license_keys.key as license_key",
      "license_keys.disabled_at as license_disabled_at",
      "license_keys.uses as license_uses",
      saleFileCount("orders.product_id"),
    ])
    .where("orders.seller_id", "=", sellerId);

type InvoiceRefs = Awaited<ReturnType<typeof invoiceRefsOfOrders>>;

function toApiSale(row: SaleRow, invoices: InvoiceRefs): ApiSale {
  return {
    id: row.id,
    productId: row.product_id,
    productTitle: row.product_title,
    customerEmail: row.customer_email,
    amountCents: row.amount_cents,
    currency: row.currency,
    settlementCents: row.settlement_cents,
    settlementCurrency: row.settlement_currency,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    refundedAt: row.refunded_at?.toISOString() ?? null,
    downloadsUsed: row.downloads_used,
    downloadsAllowed: downloadsAllowed(row.file_count),
    downloadWindowEndsAt: row.download_window_ends_at.toISOString(),
    discountCode: row.discount_code,
    discountCents: row.discount_cents,
    license: saleLicenseOf(row),
    membershipId: row.membership_id,
    periodStart: row.period_start?.toISOString() ?? null,
    periodEnd: row.period_end?.toISOString() ?? null,
    tax: orderTaxView(row),
    dispute: saleDisputeOf(row),
    importedFrom: row.imported_from,
    invoice: invoices.get(row.id) ?? null,
  };
}

/**
 * The seller's sales, newest first, a page at a time with the sales table's keyset cursor (a row
 * comparison on `(created_at, id)`, answered from an index whether or not a product is chosen), within
 * an optional product and time range.
 */
export async function listApiSales(
  db: Database,
  sellerId: string,
  query: ApiSalesQuery,
): Promise<ApiSalePage> {
  let page = salesOf(db, sellerId);
  if (query.productId) page = page.where("orders.product_id", "=", query.productId);
  const from = query.from ? parseApiDate(query.from) : undefined;
  const to = query.to ? parseApiDate(query.to) : undefined;
  if (from) page = page.where("orders.created_at", ">=", from);
  if (to) page = page.where("orders.created_at", "<", to);
  if (query.before) {
    const cursor = decodeCursor(query.before);
    page = page.where((eb) =>
      eb(eb.refTuple("orders.created_at", "orders.id"), "<", eb.tuple(cursor.createdAt, cursor.id)),
    );
  }
  const rows = await page
    .orderBy("orders.created_at", "desc")
    .orderBy("orders.id", "desc")
    .limit(pageLimit(query.limit + 1))
    .execute();
  const sales = rows.slice(0, query.limit);
  const last = sales.at(-1);
  // The page's invoices in one statement (an index read per sale), never one query per sale.
  const invoices = await invoiceRefsOfOrders(
    db,
    sellerId,
    sales.map((sale) => sale.id),
  );
  return {
    sales: sales.map((sale) => toApiSale(sale, invoices)),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.created_at, last.id) : null,
  };
}

/** One of the seller's sales; another seller's answers 404 like a missing one. */
export async function getApiSale(db: Database, sellerId: string, orderId: string): Promise<ApiSale> {
  const row = await salesOf(db, sellerId).where("orders.id", "=", orderId).executeTakeFirst();
  if (!row) throw notFound("Order not found");
  return toApiSale(row, await invoiceRefsOfOrders(db, sellerId, [row.id]));
}
