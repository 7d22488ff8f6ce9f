import { describe, expect, it } from "vitest";
import { checkBuyerAmount, PAY_WHAT_YOU_WANT_MESSAGES } from "./products";

describe("checkBuyerAmount (pay what you want)", () => {
  const flexible = { priceMode: "flexible" as const };

  it("reads dollars with a decimal point, a decimal comma, or thousands commas", () => {
    expect(checkBuyerAmount(flexible, 500, "15")).toEqual({ amountCents: 1500 });
    expect(checkBuyerAmount(flexible, 500, "$15.50")).toEqual({ amountCents: 1550 });
    expect(checkBuyerAmount(flexible, 500, "15,50")).toEqual({ amountCents: 1550 });
    expect(checkBuyerAmount(flexible, 500, "15,5")).toEqual({ amountCents: 1550 });
    expect(checkBuyerAmount(flexible, 500, "1,500")).toEqual({ amountCents: 150_000 });
    expect(checkBuyerAmount(flexible, 500, "1,500.25")).toEqual({ amountCents: 150_025 });
  });

  it("refuses what is not an amount", () => {
    expect(checkBuyerAmount(flexible, 500, "15.5.0")).toEqual({
      problem: PAY_WHAT_YOU_WANT_MESSAGES.amountInvalid,
    });
    expect(checkBuyerAmount(flexible, 500, "abc")).toEqual({
      problem: PAY_WHAT_YOU_WANT_MESSAGES.amountInvalid,
    });
  });
});
