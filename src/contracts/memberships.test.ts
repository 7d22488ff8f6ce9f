import { describe, expect, it } from "vitest";
import { CURRENCY_MESSAGES, MAX_OTHER_PRICES } from "./currencies";
import { checkTiers, MEMBERSHIP_MESSAGES, type TierInput, tierInputSchema } from "./memberships";

/** One tier (Fan: $5 a month, $50 a year unless told) with `prices` in other currencies. */
const tier = (prices: TierInput["prices"], overrides: Partial<TierInput> = {}) =>
  tierInputSchema.parse({ name: "Fan", monthlyPrice: "5", yearlyPrice: "50", prices, ...overrides });

const check = (prices: TierInput["prices"], overrides: Partial<TierInput> = {}, store = "usd") =>
  checkTiers([tier(prices, overrides)], store);

describe("checkTiers: a tier's prices in other currencies", () => {
  it("keeps monthly and yearly amounts per currency, in each currency's minor unit", () => {
    const checked = check([
      { currency: "EUR", monthly: "4,50", yearly: "45" },
      { currency: "jpy", monthly: "800", yearly: "8000" },
    ]);
    expect(checked).toEqual({
      value: [
        expect.objectContaining({
          monthlyPriceCents: 500,
          yearlyPriceCents: 5000,
          prices: [
            { currency: "eur", monthlyPriceCents: 450, yearlyPriceCents: 4500 },
            { currency: "jpy", monthlyPriceCents: 800, yearlyPriceCents: 8000 },
          ],
        }),
      ],
    });
  });

  it("has none when none are sent, and a monthly amount only for a tier without a yearly price", () => {
    expect(checkTiers([tierInputSchema.parse({ name: "Fan", monthlyPrice: "5" })])).toEqual({
      value: [expect.objectContaining({ prices: [] })],
    });
    expect(check([{ currency: "eur", monthly: "4.50" }], { yearlyPrice: null })).toEqual({
      value: [
        expect.objectContaining({
          prices: [{ currency: "eur", monthlyPriceCents: 450, yearlyPriceCents: null }],
        }),
      ],
    });
  });

  it("refuses the store currency, an unknown currency and a currency twice", () => {
    expect(check([{ currency: "usd", monthly: "5", yearly: "50" }])).toEqual({
      problem: CURRENCY_MESSAGES.sameAsStore("usd"),
    });
    expect(check([{ currency: "eur", monthly: "5", yearly: "50" }], {}, "eur")).toEqual({
      problem: CURRENCY_MESSAGES.sameAsStore("eur"),
    });
    expect(check([{ currency: "xyz", monthly: "5", yearly: "50" }])).toEqual({
      problem: CURRENCY_MESSAGES.notOffered("xyz"),
    });
    expect(
      check([
        { currency: "eur", monthly: "5", yearly: "50" },
        { currency: "EUR", monthly: "6", yearly: "60" },
      ]),
    ).toEqual({ problem: CURRENCY_MESSAGES.duplicatePrice("eur") });
  });

  it("refuses amounts below Stripe's smallest charge there, or with more decimals than the currency has", () => {
    expect(check([{ currency: "eur", monthly: "0.49", yearly: "45" }])).toEqual({
      problem: CURRENCY_MESSAGES.priceTooLow("eur"),
    });
    expect(check([{ currency: "eur", monthly: "4.50", yearly: "0.10" }])).toEqual({
      problem: CURRENCY_MESSAGES.priceTooLow("eur"),
    });
    expect(check([{ currency: "mxn", monthly: "9.99", yearly: "100" }])).toEqual({
      problem: CURRENCY_MESSAGES.priceTooLow("mxn"),
    });
    expect(check([{ currency: "eur", monthly: "4.505", yearly: "45" }])).toEqual({
      problem: CURRENCY_MESSAGES.invalidPrice("eur"),
    });
    expect(check([{ currency: "jpy", monthly: "800.5", yearly: "8000" }])).toEqual({
      problem: CURRENCY_MESSAGES.invalidPrice("jpy"),
    });
    expect(check([{ currency: "eur", monthly: "", yearly: "45" }])).toEqual({
      problem: CURRENCY_MESSAGES.invalidPrice("eur"),
    });
  });

  it("asks for a yearly amount exactly when the tier has a yearly price", () => {
    expect(check([{ currency: "eur", monthly: "4.50", yearly: "45" }], { yearlyPrice: "" })).toEqual({
      problem: MEMBERSHIP_MESSAGES.otherYearlyWithoutYearly("eur"),
    });
    expect(check([{ currency: "eur", monthly: "4.50" }])).toEqual({
      problem: MEMBERSHIP_MESSAGES.otherYearlyMissing("eur"),
    });
    expect(check([{ currency: "eur", monthly: "4.50", yearly: " " }])).toEqual({
      problem: MEMBERSHIP_MESSAGES.otherYearlyMissing("eur"),
    });
  });

  it("allows as many other prices as a one-time product, no more", () => {
    const currencies = ["eur", "gbp", "cad", "aud", "jpy", "brl", "inr", "mxn", "chf", "nzd", "sgd"];
    const prices = currencies.map((currency) => ({ currency, monthly: "100", yearly: "1000" }));
    expect("value" in check(prices.slice(0, MAX_OTHER_PRICES))).toBe(true);
    expect(check(prices.slice(0, MAX_OTHER_PRICES + 1))).toEqual({
      problem: MEMBERSHIP_MESSAGES.tooManyOtherPrices,
    });
  });
});
