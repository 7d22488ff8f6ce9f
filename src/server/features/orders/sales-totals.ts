import { sql } from "kysely";
import type { Database } from "../../db/database";
import type { CreatedOrder, OrderChangeStep } from "../order-lifecycle";

/**
 * Keeps seller_sales_totals in step with orders. Called in the same transaction as the order
 * change it counts: a new order (completed, or refunded at once), or a completed order refunded.
 */
export async function countSale(
  trx: Database,
  change: { sellerId: string; amountCents: number; kind: "new-completed" | "new-refunded" | "refunded" },
): Promise<void> {
  const orders = change.kind === "refunded" ? 0 : 1;
  const units = change.kind === "new-completed" ? 1 : change.kind === "refunded" ? -1 : 0;
  await addToTotals(trx, change.sellerId, { orders, units, revenue: units * change.amountCents });
}

/** Imported orders of one seller, counted together (a store import's batch). */
function countImportedSales(trx: Database, orders: readonly CreatedOrder[]): Promise<void> {
  const delivered = orders.filter((order) => order.delivered);
  return addToTotals(trx, orders[0]!.sellerId, {
    orders: orders.length,
    units: delivered.length,
    revenue: delivered.reduce((sum, order) => sum + order.amountCents, 0),
  });
}

async function addToTotals(
  trx: Database,
  sellerId: string,
  { orders, units, revenue }: { orders: number; units: number; revenue: number },
): Promise<void> {
  await trx
    .insertInto("seller_sales_totals")
    .values({ seller_id: sellerId, orders_count: orders, units_sold: units, revenue_cents: revenue })
    .onConflict((conflict) =>
      conflict.column("seller_id").doUpdateSet({
        orders_count: sql`seller_sales_totals.orders_count + ${orders}`,
        units_sold: sql`seller_sales_totals.units_sold + ${units}`,
        revenue_cents: sql`seller_sales_totals.revenue_cents + ${revenue}`,
      }),
    )
    .execute();
}

/**
 * A seller's sales totals as a one-row query (zeros before their first sale), to be read inside the
 * query of the page that shows them: one round trip per request.
 */
export function salesTotalsQuery(db: Database, sellerId: string) {
  return db
    .selectFrom("seller_sales_totals")
    .select([
      sql<number>`coalesce(max(orders_count), 0)`.as("orders_count"),
      sql<number>`coalesce(max(units_sold), 0)`.as("units_sold"),
      // bigint: the driver answers a string.
      sql<string>`coalesce(max(revenue_cents), 0)`.as("revenue_cents"),
    ])
    .where("seller_id", "=", sellerId);
}

/** A refund, or a dispute lost: the unit and its money leave the totals (the order still counts as an order). */
const takeBackSale: OrderChangeStep["refunded"] = (trx, order) =>
  countSale(trx, { sellerId: order.sellerId, amountCents: order.amountCents, kind: "refunded" });

/** The seller's totals follow every sale and refund (OrderChanges). */
const countNewOrder: OrderChangeStep["created"] = (trx, order) =>
  countSale(trx, {
    sellerId: order.sellerId,
    amountCents: order.amountCents,
    kind: order.delivered ? "new-completed" : "new-refunded",
  });

export const salesTotalsStep: OrderChangeStep = {
  created: countNewOrder,
  imported: countNewOrder,
  importedMany: countImportedSales,
  refunded: takeBackSale,
  disputeLost: takeBackSale,
};
