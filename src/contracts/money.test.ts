import { describe, expect, it } from "vitest";
import { centsToDecimal, formatPrice, formatWholeDollars, parsePriceToCents, percentOfCents } from "./money";

describe("money", () => {
  it("writes cents as a decimal by integer arithmetic, whatever floating point would round", () => {
    expect([0, 5, 99, 100, 1999, 100_000_000_07, -500].map(centsToDecimal)).toEqual([
      "0.00",
      "0.05",
      "0.99",
      "1.00",
      "19.99",
      "100000000.07",
      "-5.00",
    ]);
    // 1.15 * 100 is 114.99999999999999 in floating point; cents never pass through it.
    expect(centsToDecimal(parsePriceToCents("1.15")!)).toBe("1.15");
  });

  it("reads a price as cents and refuses what is not one", () => {
    expect(["19.99", "19.9", "19", " 7.05 ", 3].map(parsePriceToCents)).toEqual([1999, 1990, 1900, 705, 300]);
    expect(["", "1.999", "-1", "1e3", "$5", "1,000"].map(parsePriceToCents)).toEqual(
      Array(6).fill(undefined),
    );
  });

  it("shows dollars with two decimals, and takes a percentage to the nearest cent", () => {
    expect(formatPrice(123456)).toBe("$1,234.56");
    expect(formatWholeDollars(123456)).toBe("$1,235");
    expect(percentOfCents(1999, 15)).toBe(300);
    expect(percentOfCents(1000, 33)).toBe(330);
  });
});
