import type { SellerAnalytics } from "../../../contracts/analytics";

const DAY_MS = 24 * 60 * 60 * 1000;

type SeriesPoint = SellerAnalytics["series"][number];
interface DayCounts {
  date: string;
  views: number | string;
  units?: number | string;
  revenue?: number | string;
}

/**
 * Days since 1970-01-01 of a `YYYY-MM-DD` day. A year's page buckets 365 product days and as many store
 * days: whole numbers step and bucket with arithmetic, where parsing and formatting a Date per day and per
 * row was 42% of the request's CPU.
 */
export const dayNumber = (day: string): number =>
  Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / DAY_MS;

export const dayOfNumber = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The Monday of a day's ISO week (1970-01-01 was a Thursday): weekly points are labelled with it. */
export const mondayOf = (day: number): number => day - ((((day + 3) % 7) + 7) % 7);

/**
 * Every day (or ISO week, labelled with its Monday) from `from` to `to`, empty ones included so a chart's
 * axis is even, with the product days' views, units and revenue and the store days' views added to their
 * point. Rows outside `from`..`to` are left out.
 */
export function bucketSeries(
  from: string,
  to: string,
  bucket: "day" | "week",
  days: readonly DayCounts[],
  storeDays: readonly DayCounts[],
): SeriesPoint[] {
  const first = dayNumber(from);
  const last = dayNumber(to);
  const step = bucket === "week" ? 7 : 1;
  const start = bucket === "week" ? mondayOf(first) : first;
  const points: SeriesPoint[] = [];
  for (let key = start; key <= last; key += step) {
    points.push({ date: dayOfNumber(key), revenueCents: 0, units: 0, productViews: 0, storeViews: 0 });
  }
  const pointOf = (date: string) => {
    const day = dayNumber(date);
    return day < first || day > last ? undefined : points[Math.floor((day - start) / step)];
  };
  for (const day of days) {
    const point = pointOf(day.date);
    if (!point) continue;
    point.revenueCents += Number(day.revenue ?? 0);
    point.units += Number(day.units ?? 0);
    point.productViews += Number(day.views);
  }
  for (const day of storeDays) {
    const point = pointOf(day.date);
    if (point) point.storeViews += Number(day.views);
  }
  return points;
}
