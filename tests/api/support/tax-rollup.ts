import { sql } from "kysely";
import type { Database } from "../../../src/server/db/database";
import { TAX_REPORT_DAYS_FROM_ORDERS } from "../../../src/server/db/migrations/0038_tax_report_settlement";

const COLUMNS = sql`
  day::text as day, country, state, tax_rate, kind, taxed,
  sales_count::int as sales_count, sales_net_cents::int as sales_net_cents,
  sales_tax_cents::int as sales_tax_cents, refunded_sales_count::int as refunded_sales_count,
  refunded_sales_net_cents::int as refunded_sales_net_cents,
  refunded_sales_tax_cents::int as refunded_sales_tax_cents, refunds_count::int as refunds_count,
  refunds_net_cents::int as refunds_net_cents, refunds_tax_cents::int as refunds_tax_cents`;
const ORDER = sql`order by day, country, state, tax_rate, kind, taxed`;

/**
 * A seller's tax report roll-up as the app kept it (tax_report_days), and as migration 0028 computes it
 * from their orders: the two are equal while the roll-up is consistent with the orders.
 */
export async function taxRollupOf(db: Database, sellerId: string) {
  const kept = await sql<Record<string, unknown>>`
    select ${COLUMNS} from tax_report_days where seller_id = ${sellerId} ${ORDER}`.execute(db);
  const fromOrders = await sql<Record<string, unknown>>`
    select ${COLUMNS} from (${TAX_REPORT_DAYS_FROM_ORDERS}) as computed where seller_id = ${sellerId} ${ORDER}`.execute(
    db,
  );
  return { kept: kept.rows, fromOrders: fromOrders.rows };
}
