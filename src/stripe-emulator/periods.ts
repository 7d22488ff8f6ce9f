import type Stripe from "stripe";

/** The end of one billing period: calendar months and years, like Stripe (Jan 31 + 1 month → Feb 28/29). */
export function addInterval(start: number, interval: Stripe.Price.Recurring.Interval, count: number): number {
  const date = new Date(start * 1000);
  if (interval === "day") return start + count * 86_400;
  if (interval === "week") return start + count * 7 * 86_400;
  const months = interval === "year" ? count * 12 : count;
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return Math.floor(date.getTime() / 1000);
}
