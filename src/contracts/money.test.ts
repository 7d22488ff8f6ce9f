import { describe, expect, it } from "vitest";
import { BUYER_CURRENCIES, minimumChargeCents, STORE_CURRENCIES } from "./currencies";
import {
  centsToDecimal,
  formatMoney,
  formatPrice,
  formatWholeMoney,
  minorToDecimal,
  minorUnitDigits,
  parseMoney,
  parsePriceToCents,
  percentOfCents,
} from "./money";

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
    expect(formatWholeMoney(123456, "usd")).toBe("$1,235");
    expect(formatWholeMoney(1500, "jpy")).toBe("¥1,500");
    expect(percentOfCents(1999, 15)).toBe(300);
    expect(percentOfCents(1000, 33)).toBe(330);
  });

  it("knows each currency's minor unit as Stripe counts it", () => {
    expect(
      ["usd", "EUR", "gbp", "jpy", "krw", "kwd", "bhd", "brl", "inr", "mxn"].map(minorUnitDigits),
    ).toEqual([2, 2, 2, 0, 0, 3, 3, 2, 2, 2]);
  });

  it("writes and reads amounts in the currency's minor unit, by integer arithmetic", () => {
    expect(minorToDecimal(1999, "usd")).toBe("19.99");
    expect(minorToDecimal(5, "eur")).toBe("0.05");
    expect(minorToDecimal(1500, "jpy")).toBe("1500");
    expect(minorToDecimal(5125, "kwd")).toBe("5.125");
    expect(minorToDecimal(7, "kwd")).toBe("0.007");
    expect(minorToDecimal(-250, "gbp")).toBe("-2.50");
    expect(() => minorToDecimal(1.5, "usd")).toThrow(RangeError);
    expect(parseMoney("18", "eur")).toBe(1800);
    expect(parseMoney("18,5", "eur")).toBe(1850);
    expect(parseMoney("1.15", "usd")).toBe(115);
    expect(parseMoney("1500", "jpy")).toBe(1500);
    expect(parseMoney("5.125", "kwd")).toBe(5125);
    // A yen has no decimals, a dollar has two: more is not an amount of that currency.
    expect(["15.5", "1,5"].map((text) => parseMoney(text, "jpy"))).toEqual([undefined, undefined]);
    expect(["1.999", "-1", "1e3", "€5", "1,000.00", ""].map((text) => parseMoney(text, "usd"))).toEqual(
      Array(6).fill(undefined),
    );
  });

  it("formats for the buyer's locale with the currency's own decimals", () => {
    const nbsp = /\u00a0|\u202f/g;
    expect(formatMoney(1800, "eur", "de-DE").replace(nbsp, " ")).toBe("18,00 €");
    expect(formatMoney(1999, "usd")).toBe("$19.99");
    expect(formatMoney(150000, "jpy", "ja-JP")).toBe("￥150,000");
    expect(formatMoney(1500, "jpy", "en-US")).toBe("¥1,500");
    expect(formatMoney(123456, "brl", "pt-BR").replace(nbsp, " ")).toBe("R$ 1.234,56");
    expect(formatMoney(5125, "kwd", "en-US").replace(nbsp, " ")).toBe("KWD 5.125");
    expect(formatMoney(1900, "gbp", "en-GB")).toBe("£19.00");
    // Exact where dividing by 100 would not be: that float prints this amount as "…409.90".
    expect(formatMoney(Number.MAX_SAFE_INTEGER, "usd")).toBe("$90,071,992,547,409.91");
  });

  it("takes a percentage to the nearest minor unit of any currency", () => {
    expect(percentOfCents(1500, 15)).toBe(225); // ¥1,500 less 15%: ¥225 off
    expect(percentOfCents(999, 50)).toBe(500);
    expect(percentOfCents(5125, 10)).toBe(513); // 0.5125 KWD rounds up to 0.513
  });
});

describe("Stripe's smallest charge", () => {
  it("is a whole, positive number of minor units in every currency a buyer or a store can use", () => {
    for (const currency of new Set([...BUYER_CURRENCIES, ...STORE_CURRENCIES, "bif", "kwd"])) {
      const minimum = minimumChargeCents(currency);
      expect(Number.isSafeInteger(minimum) && minimum > 0, `${currency}: ${minimum}`).toBe(true);
    }
    expect([minimumChargeCents("usd"), minimumChargeCents("jpy"), minimumChargeCents("krw")]).toEqual([
      50, 50, 1000,
    ]);
  });
});
