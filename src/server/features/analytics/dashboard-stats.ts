import { sql } from "kysely";
import { STORAGE_QUOTA_BYTES } from "../../../contracts/uploads";
import type { Database } from "../../db/database";
import { queryTemplate } from "../../db/query-templates";
import { salesTotalsQuery } from "../orders";
import { storageUsedQuery } from "../uploads";

const STORE_VIEW_WINDOW_DAYS = 30;

/**
 * The dashboard's stat cards: small reads of the seller's roll-ups (views per day, sales totals),
 * each a one-row aggregate, joined into one statement so a request costs one database round trip.
 * Compiled once (see queryTemplate): every open dashboard asks for it after each sale.
 */
const dashboardStatsQuery = queryTemplate((db, params: { sellerId: string; sinceDay: string }) =>
  db
    .selectFrom([
      db
        .selectFrom("products")
        .select([
          sql<number>`count(*) filter (where is_active)`.as("active_products"),
          sql<number>`count(*)`.as("total_products"),
        ])
        .where("user_id", "=", params.sellerId)
        .as("products"),
      db
        .selectFrom("store_view_days")
        .select([
          sql<number>`coalesce(sum(views) filter (where day >= ${params.sinceDay}), 0)`.as("recent_views"),
          sql<number>`coalesce(sum(views), 0)`.as("all_time_views"),
        ])
        .where("store_owner_id", "=", params.sellerId)
        .as("views"),
      storageUsedQuery(db, params.sellerId).as("storage"),
      salesTotalsQuery(db, params.sellerId).as("sales"),
    ])
    .selectAll(),
);

export async function dashboardStats(db: Database, sellerId: string, now: Date) {
  // Days are UTC days: the window is today and the 29 days before it.
  const sinceDay = new Date(now.getTime() - (STORE_VIEW_WINDOW_DAYS - 1) * 24 * 60 * 60 * 1000)
    .toISOString()
    .slice(0, 10);
  const [row] = await dashboardStatsQuery.execute(db, { sellerId, sinceDay });
  if (!row) throw new Error("dashboard stats: the one-row aggregates answered no row");
  return {
    activeProducts: Number(row.active_products),
    totalProducts: Number(row.total_products),
    storeViews30d: Number(row.recent_views),
    storeViewsAllTime: Number(row.all_time_views),
    storageUsedBytes: Number(row.used),
    storageQuotaBytes: STORAGE_QUOTA_BYTES,
    unitsSold: Number(row.units_sold),
    totalRevenueCents: Number(row.revenue_cents),
  };
}
