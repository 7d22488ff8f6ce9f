import { z } from "zod";

/** The analytics page's periods: the last N UTC days (today included), or everything. */
export const ANALYTICS_PERIODS = ["7d", "30d", "90d", "365d", "all"] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
export const ANALYTICS_PERIOD_DAYS: Record<Exclude<AnalyticsPeriod, "all">, number> = {
  "7d": 7,
  "30d": 30,
  "90d": 90,
  "365d": 365,
};
export const ANALYTICS_PERIOD_LABELS: Record<AnalyticsPeriod, string> = {
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  "365d": "Last 365 days",
  all: "All time",
};
/** Past this many days, the charts show one point per week. */
export const DAILY_BUCKET_MAX_DAYS = 90;
/** Rows of the sources table. */
export const TOP_SOURCES = 20;

export const ANALYTICS_MESSAGES = {
  badPeriod: "Choose a period: 7, 30, 90 or 365 days, or all time",
  badProduct: "Choose one of your products",
  loadFailed: "Could not load your analytics.",
} as const;

export const analyticsQuerySchema = z.object({
  period: z.enum(ANALYTICS_PERIODS, { error: ANALYTICS_MESSAGES.badPeriod }).default("30d"),
  productId: z.string({ error: ANALYTICS_MESSAGES.badProduct }).min(1).max(64).optional(),
});
export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;

/**
 * Where a visit came from: the referring site's host (never our own) and the link's utm_* fields.
 * Carried from the product page through checkout to the sale, so the names double as the query
 * parameters and form fields that carry them (`ref` is our own: the host a store page was reached from).
 */
export const SOURCE_FIELDS = {
  referrerHost: "ref",
  utmSource: "utm_source",
  utmMedium: "utm_medium",
  utmCampaign: "utm_campaign",
} as const;
export const SOURCE_LIMITS = { hostLength: 253, utmLength: 100 } as const;

export interface VisitSource {
  referrerHost: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
}

/** A source as fields: the body of a product view (the source the server put in the page), Buy Now's extra fields. */
export const visitSourceFieldsSchema = z.object({
  [SOURCE_FIELDS.referrerHost]: z.string().max(SOURCE_LIMITS.hostLength).optional(),
  [SOURCE_FIELDS.utmSource]: z.string().max(SOURCE_LIMITS.utmLength).optional(),
  [SOURCE_FIELDS.utmMedium]: z.string().max(SOURCE_LIMITS.utmLength).optional(),
  [SOURCE_FIELDS.utmCampaign]: z.string().max(SOURCE_LIMITS.utmLength).optional(),
});

/** Memberships on the analytics page (features/memberships/membership-metrics.ts). */
export const membershipMetricsSchema = z.object({
  /** Monthly recurring revenue of paying members now (a yearly price counts a twelfth). */
  mrrCents: z.number(),
  /** Active or past due now (trials apart). */
  payingMembers: z.number(),
  trialingMembers: z.number(),
  /** Started within the period. */
  newMembers: z.number(),
  /** Ended within the period. */
  churnedMembers: z.number(),
  /** Every paid period after a membership's first, within the period. */
  renewalRevenueCents: z.number(),
});
export type MembershipMetrics = z.infer<typeof membershipMetricsSchema>;

const totalsSchema = z.object({
  revenueCents: z.number(),
  units: z.number(),
  productViews: z.number(),
  storeViews: z.number(),
  /** Units ÷ product views, at most 1 (features/analytics/seller-analytics.ts); null without views. */
  conversionRate: z.number().nullable(),
});
export type AnalyticsTotals = z.infer<typeof totalsSchema>;

export const analyticsSchema = z.object({
  period: z.enum(ANALYTICS_PERIODS),
  productId: z.string().nullable(),
  /** First and last UTC day of the period (YYYY-MM-DD). */
  from: z.string(),
  to: z.string(),
  bucket: z.enum(["day", "week"]),
  /** One point per day or week (the week's Monday), oldest first, empty ones included. */
  series: z.array(
    z.object({
      date: z.string(),
      revenueCents: z.number(),
      units: z.number(),
      productViews: z.number(),
      storeViews: z.number(),
    }),
  ),
  totals: totalsSchema,
  /** The same length of time just before; null for all time. */
  previous: totalsSchema.nullable(),
  products: z.array(
    z.object({
      productId: z.string(),
      title: z.string(),
      productViews: z.number(),
      units: z.number(),
      revenueCents: z.number(),
      conversionRate: z.number().nullable(),
    }),
  ),
  /**
   * Sales paid through a checkout recovery link (docs/checkout-recovery.md), within the period: revenue
   * (store currency, net of refunds, as every total) and sales; the period before's revenue (null for all time).
   */
  recovered: z
    .object({ revenueCents: z.number(), units: z.number(), previousRevenueCents: z.number().nullable() })
    .default({ revenueCents: 0, units: 0, previousRevenueCents: null }),
  /** Memberships (contracts/memberships.ts); null when the seller has never had a member. */
  memberships: membershipMetricsSchema.nullable().default(null),
  sources: z.array(
    z.object({
      referrerHost: z.string().nullable(),
      utmSource: z.string().nullable(),
      utmMedium: z.string().nullable(),
      utmCampaign: z.string().nullable(),
      productViews: z.number(),
      units: z.number(),
      revenueCents: z.number(),
    }),
  ),
});
export type SellerAnalytics = z.infer<typeof analyticsSchema>;
