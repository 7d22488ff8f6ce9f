import type {
  AnalyticsPeriod,
  AnalyticsTotals,
  MembershipMetrics,
  SellerAnalytics,
} from "../../../contracts/analytics";
import { formatMoney } from "../../../contracts/money";
import { DASHBOARD_LOCALE } from "../../lib/money";

const SHORT_DATE = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const LONG_DATE = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});
const PERCENT = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });
const COUNT = new Intl.NumberFormat("en-US");

/** A UTC day (YYYY-MM-DD) as "Mar 4"; with `long`, "Mar 4, 2026". */
export const formatDay = (day: string, long = false) =>
  (long ? LONG_DATE : SHORT_DATE).format(new Date(`${day}T00:00:00Z`));
export const formatCount = (value: number) => COUNT.format(value);
export const formatRate = (rate: number | null) => (rate === null ? "—" : PERCENT.format(rate));

/** How a point of the series is named: its day, or the week starting on that Monday. */
export const pointLabel = (date: string, bucket: SellerAnalytics["bucket"]) =>
  bucket === "week" ? `Week of ${formatDay(date)}` : formatDay(date);

/**
 * The change of a total against the period before: "+25%", "−10%", "New" (from nothing), or null
 * when there is nothing to compare (all time, or nothing in either period).
 */
export function changeOf(current: number, previous: number | null | undefined): string | null {
  if (previous === null || previous === undefined) return null;
  if (previous === 0) return current === 0 ? null : "New";
  const change = (current - previous) / Math.abs(previous);
  if (change === 0) return "No change";
  return `${change > 0 ? "+" : "−"}${PERCENT.format(Math.abs(change))}`;
}

export const previousLabel = (period: AnalyticsPeriod) =>
  period === "all" ? "" : `vs previous ${period.replace("d", "")} days`;

/** A source row's name: where it came from, or "Direct" when nothing says. */
export function sourceName(source: SellerAnalytics["sources"][number]): string {
  return source.referrerHost ?? source.utmSource ?? "Direct";
}

/** The rest of what a source row says, under its name: the utm fields its name is not. */
export function sourceDetails(source: SellerAnalytics["sources"][number]): string[] {
  const utmSource = source.referrerHost ? source.utmSource : null;
  const rest = [utmSource, source.utmMedium, source.utmCampaign].filter((part) => part !== null);
  return rest.length > 0 ? [rest.join(" · ")] : [];
}

export type TotalKey = keyof Omit<AnalyticsTotals, "conversionRate">;

/** One membership figure as its card shows it. */
export type MembershipFigure = { title: string; value: string; detail: string | null; note: string };

/**
 * The membership cards: MRR and paying members as they stand now (trials beside them), then new
 * members, churned members and renewal revenue within the period (`periodLabel`, "Last 30 days");
 * amounts in the store currency.
 */
export function membershipFigures(
  metrics: MembershipMetrics,
  periodLabel: string,
  currency: string,
): MembershipFigure[] {
  const money = (amount: number) => formatMoney(amount, currency, DASHBOARD_LOCALE);
  return [
    { title: "MRR", value: money(metrics.mrrCents), detail: null, note: "Now" },
    {
      title: "Paying members",
      value: formatCount(metrics.payingMembers),
      detail: metrics.trialingMembers > 0 ? `+ ${formatCount(metrics.trialingMembers)} on trial` : null,
      note: "Now",
    },
    { title: "New members", value: formatCount(metrics.newMembers), detail: null, note: periodLabel },
    { title: "Churned", value: formatCount(metrics.churnedMembers), detail: null, note: periodLabel },
    {
      title: "Renewal revenue",
      value: money(metrics.renewalRevenueCents),
      detail: null,
      note: periodLabel,
    },
  ];
}
