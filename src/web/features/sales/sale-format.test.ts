import { describe, expect, it } from "vitest";
import { formatSaleDate } from "./sale-format";

describe("formatSaleDate", () => {
  it("uses the spec's 'MMM dd, yyyy HH:mm' in local time", () => {
    const local = new Date(2026, 0, 5, 7, 4);
    expect(formatSaleDate(local.toISOString())).toBe("Jan 05, 2026 07:04");
  });
});
