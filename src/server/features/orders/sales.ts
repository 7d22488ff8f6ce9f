import { type Selectable, sql } from "kysely";
import type { SaleDispute, SaleDisputeStatus } from "../../../contracts/disputes";
import { PURCHASE_RULES, type SalesPage } from "../../../contracts/orders";
import { type ChangeDeps, commitChange } from "../../adapters/events/commit-change";
import type { Database } from "../../db/database";
import { pageLimit } from "../../db/page-limit";
import { queryTemplate } from "../../db/query-templates";
import type { OrderTable } from "../../db/schema";
import { notFound } from "../../http/errors";
import { decodeCursor, encodeCursor } from "../../http/keyset-cursor";
import { saleLicenseOf } from "../licenses";
import { ORDER_TAX_COLUMNS, orderTaxView } from "./order-tax-view";
import { salesTotalsQuery } from "./sales-totals";

type SaleRow = Pick<
  Selectable<OrderTable>,
  | "id"
  | "customer_email"
  | "product_title"
  | "amount_cents"
  | "currency"
  | "settlement_cents"
  | "settlement_currency"
  | "created_at"
  | "status"
  | "downloads_used"
  | "discount_code"
  | "discount_cents"
  | "period_start"
  | "period_end"
  | "dispute_id"
  | "dispute_status"
  | "imported_from"
  | (typeof ORDER_TAX_COLUMNS)[number]
>;

/** A sale's latest dispute as the sales table, the API and the CSV show it; null if never disputed. */
export const saleDisputeOf = (row: {
  dispute_id: string | null;
  dispute_status: SaleDisputeStatus | null;
}): SaleDispute | null =>
  row.dispute_id && row.dispute_status ? { id: row.dispute_id, status: row.dispute_status } : null;

/** How many files a sale's product has now: a subquery on the sale's `product_id` column. */
export const saleFileCount = (productIdColumn: string) => {
  const productId = sql.ref(productIdColumn);
  return sql<string | null>`(select count(*) from product_files where product_id = ${productId})`.as(
    "file_count",
  );
};
/** A sale allows 3 downloads of each of its product's files (3 in all once the product is gone). */
export const downloadsAllowed = (fileCount: string | number | null) =>
  PURCHASE_RULES.maxDownloads * Math.max(1, Number(fileCount ?? 0));

/**
 * Customer Sales: the seller's own orders, newest first, one page at a time, with the seller's totals
 * read in the same statement (one round trip). The page is right-joined to the one-row totals, so an
 * empty page still answers one row, whose order columns are null. Compiled once per page size, with
 * and without a cursor (see queryTemplate): it is the dashboard's busiest read.
 */
const salesPageQuery = queryTemplate(
  (
    db,
    params: { sellerId: string; cursorCreatedAt?: Date; cursorId?: string },
    shape: { limit: number; afterCursor: boolean },
  ) => {
    let page = db
      .selectFrom("orders")
      .select([
        "id",
        "customer_email",
        "product_title",
        "amount_cents",
        "currency",
        "settlement_cents",
        "settlement_currency",
        "created_at",
        "status",
        "downloads_used",
        "discount_code",
        "discount_cents",
        "product_id",
        "period_start",
        "period_end",
        "dispute_id",
        "dispute_status",
        "imported_from",
        ...ORDER_TAX_COLUMNS,
      ])
      .where("seller_id", "=", params.sellerId);
    if (shape.afterCursor) {
      // A row comparison, which PostgreSQL answers from the (seller_id, created_at, id) index directly
      // (an `or` of the two cases would read and discard every newer order first).
      page = page.where((eb) =>
        eb(
          eb.refTuple("created_at", "id"),
          "<",
          eb.tuple(params.cursorCreatedAt as Date, params.cursorId as string),
        ),
      );
    }
    return db
      .selectFrom(
        page
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .limit(pageLimit(shape.limit + 1))
          .as("page"),
      )
      .rightJoin(salesTotalsQuery(db, params.sellerId).as("totals"), (join) => join.onTrue())
      .leftJoin("license_keys", "license_keys.order_id", "page.id")
      .selectAll("page")
      .select(["totals.orders_count", "totals.units_sold", saleFileCount("page.product_id")])
      .select([
        "license_keys.key as license_key",
        "license_keys.disabled_at as license_disabled_at",
        "license_keys.uses as license_uses",
      ])
      .orderBy("page.created_at", "desc")
      .orderBy("page.id", "desc");
  },
  (shape) => `${shape.limit}:${shape.afterCursor}`,
);

export async function salesPage(
  db: Database,
  sellerId: string,
  limit: number,
  before?: string,
): Promise<SalesPage> {
  const cursor = before ? decodeCursor(before) : undefined;
  const joined = await salesPageQuery.execute(
    db,
    cursor ? { sellerId, cursorCreatedAt: cursor.createdAt, cursorId: cursor.id } : { sellerId },
    { limit, afterCursor: cursor !== undefined },
  );
  const totals = joined[0];
  const rows = joined.filter((row): row is typeof row & SaleRow => row.id !== null);
  const sales = rows.slice(0, limit);
  const last = sales.at(-1);
  return {
    sales: sales.map((row) => ({
      id: row.id,
      customerEmail: row.customer_email,
      productTitle: row.product_title,
      amountCents: row.amount_cents,
      currency: row.currency,
      settlementCents: row.settlement_cents,
      settlementCurrency: row.settlement_currency,
      createdAt: row.created_at.toISOString(),
      status: row.status,
      downloadsUsed: row.downloads_used,
      downloadsAllowed: downloadsAllowed(row.file_count),
      discountCode: row.discount_code,
      discountCents: row.discount_cents,
      license: saleLicenseOf(row),
      periodStart: row.period_start?.toISOString() ?? null,
      periodEnd: row.period_end?.toISOString() ?? null,
      tax: orderTaxView(row),
      dispute: saleDisputeOf(row),
      importedFrom: row.imported_from,
    })),
    total: Number(totals?.orders_count ?? 0),
    completed: Number(totals?.units_sold ?? 0),
    nextCursor: rows.length > limit && last ? encodeCursor(last.created_at, last.id) : null,
  };
}

/** The seller gives a buyer their 3 downloads of every file back (e.g. after a failed download). */
export async function resetDownloads(deps: ChangeDeps, sellerId: string, orderId: string): Promise<void> {
  await commitChange(deps, async (trx, announce) => {
    announce(sellerId, { type: "sales.changed" });
    const reset = await trx
      .updateTable("orders")
      .set({ downloads_used: 0 })
      .where("id", "=", orderId)
      .where("seller_id", "=", sellerId)
      .returning("id")
      .executeTakeFirst();
    if (!reset) throw notFound("Order not found");
    await trx.deleteFrom("order_file_downloads").where("order_id", "=", orderId).execute();
  });
}
