import { describe, expect, it } from "vitest";
import { bucketSeries, dayNumber, dayOfNumber, mondayOf } from "./series-buckets";

describe("day numbers", () => {
  it("count days from 1970-01-01 and back, across leap days and before 1970", () => {
    expect(dayNumber("1970-01-01")).toBe(0);
    expect(dayNumber("1969-12-31")).toBe(-1);
    expect(dayNumber("2024-03-01") - dayNumber("2024-02-28")).toBe(2);
    for (const day of ["2024-02-29", "2026-12-31", "1969-12-29", "2000-01-01"]) {
      expect(dayOfNumber(dayNumber(day))).toBe(day);
    }
  });

  it("find the Monday of a day's ISO week", () => {
    const monday = (day: string) => dayOfNumber(mondayOf(dayNumber(day)));
    expect(monday("2026-11-23")).toBe("2026-11-23"); // a Monday
    expect(monday("2026-11-29")).toBe("2026-11-23"); // its Sunday
    expect(monday("2026-01-01")).toBe("2025-12-29"); // a Thursday across a year
    expect(monday("1970-01-01")).toBe("1969-12-29");
    expect(monday("1969-12-28")).toBe("1969-12-22");
  });
});

describe("bucketSeries", () => {
  it("has every day from the first to the last, empty ones included", () => {
    const series = bucketSeries(
      "2026-02-27",
      "2026-03-02",
      "day",
      [
        { date: "2026-02-28", views: 3, units: 1, revenue: "500" },
        { date: "2026-03-02", views: "2", units: 0, revenue: 0 },
      ],
      [{ date: "2026-02-27", views: 7 }],
    );
    expect(series).toEqual([
      { date: "2026-02-27", revenueCents: 0, units: 0, productViews: 0, storeViews: 7 },
      { date: "2026-02-28", revenueCents: 500, units: 1, productViews: 3, storeViews: 0 },
      { date: "2026-03-01", revenueCents: 0, units: 0, productViews: 0, storeViews: 0 },
      { date: "2026-03-02", revenueCents: 0, units: 0, productViews: 2, storeViews: 0 },
    ]);
  });

  it("adds weeks up under their Monday, the first and last weeks partial", () => {
    // Wednesday 2026-11-04 to Tuesday 2026-11-17: three ISO weeks.
    const series = bucketSeries(
      "2026-11-04",
      "2026-11-17",
      "week",
      [
        { date: "2026-11-04", views: 1, units: 1, revenue: 100 },
        { date: "2026-11-08", views: 1, units: 1, revenue: 100 },
        { date: "2026-11-09", views: 5, units: 2, revenue: 300 },
        { date: "2026-11-17", views: 4, units: 0, revenue: 0 },
      ],
      [
        { date: "2026-11-15", views: 2 },
        { date: "2026-11-16", views: 6 },
      ],
    );
    expect(series).toEqual([
      { date: "2026-11-02", revenueCents: 200, units: 2, productViews: 2, storeViews: 0 },
      { date: "2026-11-09", revenueCents: 300, units: 2, productViews: 5, storeViews: 2 },
      { date: "2026-11-16", revenueCents: 0, units: 0, productViews: 4, storeViews: 6 },
    ]);
  });

  it("leaves out rows outside the period, also in the first week's days before it", () => {
    const series = bucketSeries(
      "2026-11-04",
      "2026-11-08",
      "week",
      [
        { date: "2026-11-02", views: 9, units: 9, revenue: 900 },
        { date: "2026-11-09", views: 9, units: 9, revenue: 900 },
      ],
      [{ date: "2026-11-03", views: 9 }],
    );
    expect(series).toEqual([
      { date: "2026-11-02", revenueCents: 0, units: 0, productViews: 0, storeViews: 0 },
    ]);
  });

  it("buckets a year into 53 or 54 weekly points", () => {
    const series = bucketSeries("2025-11-27", "2026-11-26", "week", [], []);
    expect(series[0]?.date).toBe("2025-11-24");
    expect(series.at(-1)?.date).toBe("2026-11-23");
    expect(series).toHaveLength(53);
  });
});
