import { sql } from "kysely";
import { z } from "zod";
import type {
  ArchiveProductDay,
  ArchiveSourceDay,
  ArchiveStoreViewDay,
} from "../../../../contracts/store-archive";
import type { Database } from "../../../db/database";
import { keysetPages, type PageOptions, recordsOnly, storeCurrency } from "./keyset";

// The analytics roll-ups, keyed by their primary keys after the seller (a day as YYYY-MM-DD text).
const dayProductKey = z.tuple([z.iso.date(), z.string()]);
const sourceKey = z.tuple([z.iso.date(), z.string(), z.string(), z.string(), z.string(), z.string()]);
const dayKey = z.tuple([z.iso.date()]);

/** analytics/product-days.ndjson: views, units and revenue per product and UTC day. */
export function readProductDays(db: Database, sellerId: string, options?: PageOptions) {
  return keysetPages(
    {
      key: dayProductKey,
      fetch: (after, limit) =>
        db
          .selectFrom("analytics_product_days")
          .selectAll()
          .select(sql<string>`day::text`.as("day_text"))
          .where("seller_id", "=", sellerId)
          .$if(after !== undefined, (query) =>
            query.where(sql<boolean>`(day, product_id) > (${after![0]}::date, ${after![1]})`),
          )
          .orderBy("day")
          .orderBy("product_id")
          .limit(limit)
          .execute(),
      keyOf: (row) => [row.day_text, row.product_id] as [string, string],
      toPage: recordsOnly(async (rows) => {
        const currency = await storeCurrency(db, sellerId);
        return rows.map(
          (row): ArchiveProductDay => ({
            day: row.day_text,
            productId: row.product_id,
            ...counts(row),
            currency,
          }),
        );
      }),
    },
    options,
  );
}

/** analytics/source-days.ndjson: the same per product, day and where the visits came from. */
export function readSourceDays(db: Database, sellerId: string, options?: PageOptions) {
  return keysetPages(
    {
      key: sourceKey,
      fetch: (after, limit) =>
        db
          .selectFrom("analytics_source_days")
          .selectAll()
          .select(sql<string>`day::text`.as("day_text"))
          .where("seller_id", "=", sellerId)
          .$if(after !== undefined, (query) =>
            query.where(
              sql<boolean>`(day, product_id, referrer_host, utm_source, utm_medium, utm_campaign) >
                (${after![0]}::date, ${after![1]}, ${after![2]}, ${after![3]}, ${after![4]}, ${after![5]})`,
            ),
          )
          .orderBy("day")
          .orderBy("product_id")
          .orderBy("referrer_host")
          .orderBy("utm_source")
          .orderBy("utm_medium")
          .orderBy("utm_campaign")
          .limit(limit)
          .execute(),
      keyOf: (row) =>
        [
          row.day_text,
          row.product_id,
          row.referrer_host,
          row.utm_source,
          row.utm_medium,
          row.utm_campaign,
        ] as [string, string, string, string, string, string],
      toPage: recordsOnly(async (rows) => {
        const currency = await storeCurrency(db, sellerId);
        return rows.map(
          (row): ArchiveSourceDay => ({
            day: row.day_text,
            productId: row.product_id,
            referrerHost: row.referrer_host,
            utmSource: row.utm_source,
            utmMedium: row.utm_medium,
            utmCampaign: row.utm_campaign,
            ...counts(row),
            currency,
          }),
        );
      }),
    },
    options,
  );
}

/** analytics/store-view-days.ndjson: the store page's views per UTC day. */
export function readStoreViewDays(db: Database, sellerId: string, options?: PageOptions) {
  return keysetPages(
    {
      key: dayKey,
      fetch: (after, limit) =>
        db
          .selectFrom("store_view_days")
          .select(["views", sql<string>`day::text`.as("day_text")])
          .where("store_owner_id", "=", sellerId)
          .$if(after !== undefined, (query) => query.where(sql<boolean>`day > ${after![0]}::date`))
          .orderBy("day")
          .limit(limit)
          .execute(),
      keyOf: (row) => [row.day_text] as [string],
      toPage: recordsOnly((rows) =>
        rows.map((row): ArchiveStoreViewDay => ({ day: row.day_text, views: row.views })),
      ),
    },
    options,
  );
}

const counts = (row: {
  views: number;
  units: number;
  revenue_cents: number;
  recovered_units: number;
  recovered_cents: number;
}) => ({
  views: row.views,
  units: row.units,
  revenueCents: Number(row.revenue_cents),
  recoveredUnits: row.recovered_units,
  recoveredCents: Number(row.recovered_cents),
});
