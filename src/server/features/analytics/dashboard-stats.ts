import { sql } from "kysely";
import { STORAGE_QUOTA_BYTES } from "../../../contracts/uploads";
import type { Database } from "../../db/database";
import { salesStats } from "../orders/sales";
import { storageUsedBytes } from "../uploads/queries";

const STORE_VIEW_WINDOW_DAYS = 30;

/** The dashboard's stat cards, each one SQL aggregate over the seller's own rows. */
export async function dashboardStats(db: Database, sellerId: string, now: Date) {
  const since = new Date(now.getTime() - STORE_VIEW_WINDOW_DAYS * 24 * 60 * 60 * 1000);
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
      .selectFrom("store_views")
      .select([
        sql<number>`count(*) filter (where viewed_at >= ${since})`.as("recent"),
        sql<number>`count(*)`.as("allTime"),
      ])
      .where("store_owner_id", "=", sellerId)
      .executeTakeFirstOrThrow(),
    storageUsedBytes(db, sellerId),
    salesStats(db, sellerId),
  ]);
  return {
    activeProducts: Number(products.active),
    totalProducts: Number(products.total),
    storeViews30d: Number(views.recent),
    storeViewsAllTime: Number(views.allTime),
    storageUsedBytes: storageUsed,
    storageQuotaBytes: STORAGE_QUOTA_BYTES,
    ...sales,
  };
}
