import { sql } from "kysely";
import { STORAGE_QUOTA_BYTES } from "../../../contracts/uploads";
import type { Database } from "../../db/database";
import { salesTotals } from "../orders/sales-totals";
import { storageUsedBytes } from "../uploads/queries";

const STORE_VIEW_WINDOW_DAYS = 30;

/** The dashboard's stat cards: small reads of the seller's roll-ups (views per day, sales totals). */
export async function dashboardStats(db: Database, sellerId: string, now: Date) {
  // Days are UTC days: the window is today and the 29 days before it.
  const sinceDay = new Date(now.getTime() - (STORE_VIEW_WINDOW_DAYS - 1) * 24 * 60 * 60 * 1000)
    .toISOString()
    .slice(0, 10);
  const [products, views, storageUsed, sales] = await Promise.all([
    db
      .selectFrom("products")
      .select([
        sql<number>`count(*) filter (where is_active)`.as("active"),
        sql<number>`count(*)`.as("total"),
      ])
      .where("user_id", "=", sellerId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("store_view_days")
      .select([
        sql<number>`coalesce(sum(views) filter (where day >= ${sinceDay}), 0)`.as("recent"),
        sql<number>`coalesce(sum(views), 0)`.as("allTime"),
      ])
      .where("store_owner_id", "=", sellerId)
      .executeTakeFirstOrThrow(),
    storageUsedBytes(db, sellerId),
    salesTotals(db, sellerId),
  ]);
  return {
    activeProducts: Number(products.active),
    totalProducts: Number(products.total),
    storeViews30d: Number(views.recent),
    storeViewsAllTime: Number(views.allTime),
    storageUsedBytes: storageUsed,
    storageQuotaBytes: STORAGE_QUOTA_BYTES,
    unitsSold: sales.unitsSold,
    totalRevenueCents: sales.totalRevenueCents,
  };
}
