import { sql } from "kysely";
import type { VisitSource } from "../../../contracts/analytics";
import type { Database } from "../../db/database";
import { sourceColumns } from "./visit-source";

/** What one view, sale or refund adds to a seller's day (negative for a refund). */
export interface RollupChange {
  sellerId: string;
  productId: string;
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  source: VisitSource;
  views: number;
  units: number;
  revenueCents: number;
  /** Of the sale (or refund), what came through a checkout recovery link (docs/checkout-recovery.md). */
  recoveredUnits?: number;
  recoveredCents?: number;
}

export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * Adds a change to both roll-ups the analytics page reads (per product and day; per product, source and
 * day), inside the caller's transaction, so they always agree with the views and orders they count.
 */
export async function addToRollups(trx: Database, change: RollupChange): Promise<void> {
  const recoveredUnits = change.recoveredUnits ?? 0;
  const recoveredCents = change.recoveredCents ?? 0;
  const counts = {
    views: change.views,
    units: change.units,
    revenue_cents: change.revenueCents,
    recovered_units: recoveredUnits,
    recovered_cents: recoveredCents,
  };
  const key = { seller_id: change.sellerId, day: change.day, product_id: change.productId };
  await trx
    .insertInto("analytics_product_days")
    .values({ ...key, ...counts })
    .onConflict((conflict) =>
      conflict.columns(["seller_id", "day", "product_id"]).doUpdateSet({
        views: sql`analytics_product_days.views + ${change.views}`,
        units: sql`analytics_product_days.units + ${change.units}`,
        revenue_cents: sql`analytics_product_days.revenue_cents + ${change.revenueCents}`,
        recovered_units: sql`analytics_product_days.recovered_units + ${recoveredUnits}`,
        recovered_cents: sql`analytics_product_days.recovered_cents + ${recoveredCents}`,
      }),
    )
    .execute();
  await trx
    .insertInto("analytics_source_days")
    .values({ ...key, ...sourceColumns(change.source), ...counts })
    .onConflict((conflict) =>
      conflict
        .columns([
          "seller_id",
          "day",
          "product_id",
          "referrer_host",
          "utm_source",
          "utm_medium",
          "utm_campaign",
        ])
        .doUpdateSet({
          views: sql`analytics_source_days.views + ${change.views}`,
          units: sql`analytics_source_days.units + ${change.units}`,
          revenue_cents: sql`analytics_source_days.revenue_cents + ${change.revenueCents}`,
          recovered_units: sql`analytics_source_days.recovered_units + ${recoveredUnits}`,
          recovered_cents: sql`analytics_source_days.recovered_cents + ${recoveredCents}`,
        }),
    )
    .execute();
}
