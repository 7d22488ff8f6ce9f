import { sql } from "kysely";
import {
  ANALYTICS_PERIOD_DAYS,
  type AnalyticsQuery,
  type AnalyticsTotals,
  DAILY_BUCKET_MAX_DAYS,
  type SellerAnalytics,
  TOP_SOURCES,
} from "../../../contracts/analytics";
import type { Database } from "../../db/database";
import { membershipMetrics } from "../memberships";
import { utcDay } from "./rollups";
import { bucketSeries, dayNumber, dayOfNumber } from "./series-buckets";

const DELETED_PRODUCT = "Deleted product";

interface DayRow {
  date: string;
  views: number;
  units: number;
  revenue: number;
}
interface Counts {
  views: number;
  units: number;
  revenue: number;
}
interface AnalyticsRow {
  series: DayRow[];
  store_series: Array<{ date: string; views: number }>;
  previous: Counts;
  previous_store_views: number;
  recovered: { units: number; revenue: number; previous_revenue: number };
  products: Array<{ id: string; title: string | null } & Counts>;
  sources: Array<{ host: string; source: string; medium: string; campaign: string } & Counts>;
}

const addDays = (day: string, days: number) => dayOfNumber(dayNumber(day) + days);
const daysBetween = (from: string, to: string) => dayNumber(to) - dayNumber(from) + 1;
/**
 * Sales ÷ counted product views, at most 1: a view is counted once per visitor per 30 minutes and only
 * with the page's script, so a visitor who buys twice, or buys from a page whose view was not counted
 * (script off, a bot-like browser, a link straight to Buy Now through the API), makes more sales than
 * views; past 100% the rate would say nothing true. Null without views.
 */
export const conversionRate = (units: number, views: number): number | null =>
  views > 0 ? Math.min(units, views) / views : null;
const orNull = (value: string) => (value === "" ? null : value);

/**
 * The analytics page: revenue, units and product views per day (per week past 90 days) from the
 * per-product roll-up, store views from store_view_days, the same totals for the period just before,
 * and per product and per source. One statement reading roll-ups only (no order or view rows), so it
 * costs the same with 100 orders or 100,000. Every read is filtered by the seller; a product filter
 * naming another seller's product finds nothing.
 */
export async function sellerAnalytics(
  db: Database,
  sellerId: string,
  query: AnalyticsQuery,
  now: Date,
): Promise<SellerAnalytics> {
  const to = utcDay(now);
  const periodDays = query.period === "all" ? null : ANALYTICS_PERIOD_DAYS[query.period];
  // All time has no period before it: everything up to today is read as the period itself.
  const from = periodDays === null ? null : addDays(to, -(periodDays - 1));
  const previousFrom = periodDays === null || from === null ? null : addDays(from, -periodDays);
  const productId = query.productId ?? null;

  const readFrom = previousFrom ?? from;
  const dayRange = (column: string) =>
    sql`${sql.ref(column)} <= ${to}::date ${readFrom ? sql`and ${sql.ref(column)} >= ${readFrom}::date` : sql``}`;
  const inPeriod = (column: string) => (from ? sql`${sql.ref(column)} >= ${from}::date` : sql`true`);
  const productFilter = productId ? sql`and product_id = ${productId}` : sql``;

  const result = await sql<AnalyticsRow>`
    with product_days as (
      select day, product_id, views, units, revenue_cents, recovered_units, recovered_cents
      from analytics_product_days
      where seller_id = ${sellerId} and ${dayRange("day")} ${productFilter}
    ),
    current_days as (select * from product_days where ${inPeriod("day")}),
    store_days as (
      select day, views from store_view_days
      where store_owner_id = ${sellerId} and ${dayRange("day")}
    ),
    per_product as (
      select product_id, sum(views) as views, sum(units) as units, sum(revenue_cents) as revenue
      from current_days group by product_id
    ),
    per_source as (
      select referrer_host, utm_source, utm_medium, utm_campaign,
             sum(views) as views, sum(units) as units, sum(revenue_cents) as revenue
      from analytics_source_days
      where seller_id = ${sellerId} and day <= ${to}::date and ${inPeriod("day")} ${productFilter}
      group by referrer_host, utm_source, utm_medium, utm_campaign
      having sum(views) <> 0 or sum(units) <> 0 or sum(revenue_cents) <> 0
      order by revenue desc, units desc, views desc, referrer_host, utm_source, utm_medium, utm_campaign
      limit ${TOP_SOURCES}
    )
    select
      (select coalesce(json_agg(json_build_object('date', day::text, 'views', views, 'units', units, 'revenue', revenue) order by day), '[]')
       from (select day, sum(views) as views, sum(units) as units, sum(revenue_cents) as revenue
             from current_days group by day) as days) as series,
      (select coalesce(json_agg(json_build_object('date', day::text, 'views', views) order by day), '[]')
       from store_days where ${inPeriod("day")}) as store_series,
      (select json_build_object('views', coalesce(sum(views), 0), 'units', coalesce(sum(units), 0),
                                'revenue', coalesce(sum(revenue_cents), 0))
       from product_days where not (${inPeriod("day")})) as previous,
      (select coalesce(sum(views), 0)::int from store_days where not (${inPeriod("day")})) as previous_store_views,
      (select json_build_object('units', coalesce(sum(recovered_units) filter (where ${inPeriod("day")}), 0),
                                'revenue', coalesce(sum(recovered_cents) filter (where ${inPeriod("day")}), 0),
                                'previous_revenue', coalesce(sum(recovered_cents) filter (where not (${inPeriod("day")})), 0))
       from product_days) as recovered,
      (select coalesce(json_agg(json_build_object('id', per_product.product_id, 'title', products.title,
                                'views', per_product.views, 'units', per_product.units, 'revenue', per_product.revenue)
                                order by per_product.revenue desc, per_product.units desc, per_product.views desc, per_product.product_id), '[]')
       from per_product
       left join products on products.id = per_product.product_id and products.user_id = ${sellerId}
       where per_product.views <> 0 or per_product.units <> 0 or per_product.revenue <> 0) as products,
      (select coalesce(json_agg(json_build_object('host', referrer_host, 'source', utm_source, 'medium', utm_medium,
                                'campaign', utm_campaign, 'views', views, 'units', units, 'revenue', revenue)
                                order by revenue desc, units desc, views desc, referrer_host, utm_source, utm_medium, utm_campaign), '[]')
       from per_source) as sources
  `.execute(db);
  const row = result.rows[0];
  if (!row) throw new Error("the analytics statement answered no row");
  const memberships = await membershipsOfPeriod(db, sellerId, { from, to, productId });

  // All time starts at the seller's first day with anything to show.
  const firstDay = [row.series[0]?.date, row.store_series[0]?.date].filter(Boolean).sort()[0] ?? to;
  const start = from ?? firstDay;
  const bucket = daysBetween(start, to) > DAILY_BUCKET_MAX_DAYS ? "week" : "day";
  const series = bucketSeries(start, to, bucket, row.series, row.store_series);
  const sum = (pick: (point: (typeof series)[number]) => number) =>
    series.reduce((total, point) => total + pick(point), 0);
  const totals = totalsOf(
    sum((point) => point.productViews),
    sum((point) => point.units),
    sum((point) => point.revenueCents),
    sum((point) => point.storeViews),
  );
  return {
    period: query.period,
    productId,
    from: start,
    to,
    bucket,
    series,
    totals,
    previous:
      previousFrom === null
        ? null
        : totalsOf(
            Number(row.previous.views),
            Number(row.previous.units),
            Number(row.previous.revenue),
            Number(row.previous_store_views),
          ),
    products: row.products.map((product) => ({
      productId: product.id,
      title: product.title ?? DELETED_PRODUCT,
      productViews: Number(product.views),
      units: Number(product.units),
      revenueCents: Number(product.revenue),
      conversionRate: conversionRate(Number(product.units), Number(product.views)),
    })),
    recovered: {
      revenueCents: Number(row.recovered.revenue),
      units: Number(row.recovered.units),
      previousRevenueCents: previousFrom === null ? null : Number(row.recovered.previous_revenue),
    },
    memberships,
    sources: row.sources.map((source) => ({
      referrerHost: orNull(source.host),
      utmSource: orNull(source.source),
      utmMedium: orNull(source.medium),
      utmCampaign: orNull(source.campaign),
      productViews: Number(source.views),
      units: Number(source.units),
      revenueCents: Number(source.revenue),
    })),
  };
}

function totalsOf(
  productViews: number,
  units: number,
  revenueCents: number,
  storeViews: number,
): AnalyticsTotals {
  return {
    revenueCents,
    units,
    productViews,
    storeViews,
    conversionRate: conversionRate(units, productViews),
  };
}

/** The period's membership figures, or null for a seller who never had a member (nothing to show). */
async function membershipsOfPeriod(
  db: Database,
  sellerId: string,
  period: { from: string | null; to: string; productId: string | null },
) {
  const any = await db
    .selectFrom("memberships")
    .select("id")
    .where("seller_id", "=", sellerId)
    .limit(1)
    .executeTakeFirst();
  if (!any) return null;
  const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);
  return membershipMetrics(db, sellerId, {
    from: period.from ? dayStart(period.from) : null,
    to: new Date(dayStart(period.to).getTime() + 24 * 60 * 60 * 1000),
    productId: period.productId,
  });
}
