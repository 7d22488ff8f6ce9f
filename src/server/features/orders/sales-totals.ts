import { sql } from "kysely";
import type { Database } from "../../db/database";

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
  const revenue = units * change.amountCents;
  await trx
    .insertInto("seller_sales_totals")
    .values({ seller_id: change.sellerId, orders_count: orders, units_sold: units, revenue_cents: revenue })
    .onConflict((conflict) =>
      conflict.column("seller_id").doUpdateSet({
        orders_count: sql`seller_sales_totals.orders_count + ${orders}`,
        units_sold: sql`seller_sales_totals.units_sold + ${units}`,
        revenue_cents: sql`seller_sales_totals.revenue_cents + ${revenue}`,
      }),
    )
    .execute();
}

export async function salesTotals(db: Database, sellerId: string) {
  const row = await db
    .selectFrom("seller_sales_totals")
    .selectAll()
    .where("seller_id", "=", sellerId)
    .executeTakeFirst();
  return {
    ordersCount: row?.orders_count ?? 0,
    unitsSold: row?.units_sold ?? 0,
    totalRevenueCents: Number(row?.revenue_cents ?? 0),
  };
}
