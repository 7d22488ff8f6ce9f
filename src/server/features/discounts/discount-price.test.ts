import { describe, expect, it } from "vitest";
import { discountCodeStatus, priceAfterDiscount } from "./discount-price";

describe("priceAfterDiscount", () => {
  it("takes a percentage off, rounded to the nearest cent", () => {
    expect(priceAfterDiscount(1999, { kind: "percent", value: 20 })).toEqual({
      priceCents: 1599,
      discountCents: 400,
    });
    expect(priceAfterDiscount(1000, { kind: "percent", value: 1 })).toEqual({
      priceCents: 990,
      discountCents: 10,
    });
    // Half a cent goes to the buyer.
    expect(priceAfterDiscount(999, { kind: "percent", value: 50 })).toEqual({
      priceCents: 499,
      discountCents: 500,
    });
  });

  it("takes an amount off", () => {
    expect(priceAfterDiscount(1999, { kind: "amount", value: 500 })).toEqual({
      priceCents: 1499,
      discountCents: 500,
    });
  });

  it("brings the price to exactly $0 when the code takes it all: a free purchase", () => {
    expect(priceAfterDiscount(1999, { kind: "percent", value: 100 })).toEqual({
      priceCents: 0,
      discountCents: 1999,
    });
    // An amount larger than the price takes the price, never more.
    expect(priceAfterDiscount(1999, { kind: "amount", value: 5000 })).toEqual({
      priceCents: 0,
      discountCents: 1999,
    });
    expect(priceAfterDiscount(1999, { kind: "percent", value: 99 }).priceCents).toBe(50);
  });

  it("raises a price between $0 and Stripe's $0.50 minimum to $0.50", () => {
    expect(priceAfterDiscount(1000, { kind: "amount", value: 990 })).toEqual({
      priceCents: 50,
      discountCents: 950,
    });
    expect(priceAfterDiscount(1000, { kind: "percent", value: 99 })).toEqual({
      priceCents: 50,
      discountCents: 950,
    });
    // A $0.50 product with a small code cannot go lower: it keeps its price.
    expect(priceAfterDiscount(50, { kind: "amount", value: 10 })).toEqual({
      priceCents: 50,
      discountCents: 0,
    });
    expect(priceAfterDiscount(60, { kind: "amount", value: 20 })).toEqual({
      priceCents: 50,
      discountCents: 10,
    });
  });
});

describe("discountCodeStatus", () => {
  const now = new Date("2026-06-01T12:00:00Z");
  const code = {
    paused: false,
    starts_at: null,
    ends_at: null,
    max_uses: null,
    uses_used: 0,
    uses_reserved: 0,
  };
  const counting = { countHeldUses: true };

  it("is active with no limits", () => {
    expect(discountCodeStatus(code, now, counting)).toBe("active");
  });

  it("is paused, scheduled or expired by its switch and dates", () => {
    expect(discountCodeStatus({ ...code, paused: true }, now, counting)).toBe("paused");
    expect(discountCodeStatus({ ...code, starts_at: new Date("2026-06-02T00:00:00Z") }, now, counting)).toBe(
      "scheduled",
    );
    expect(discountCodeStatus({ ...code, ends_at: now }, now, counting)).toBe("expired");
    expect(
      discountCodeStatus(
        { ...code, starts_at: new Date("2026-05-01T00:00:00Z"), ends_at: new Date("2026-07-01T00:00:00Z") },
        now,
        counting,
      ),
    ).toBe("active");
  });

  it("is used up when its uses are taken; held uses count only when asked", () => {
    expect(discountCodeStatus({ ...code, max_uses: 2, uses_used: 2 }, now, counting)).toBe("used_up");
    const held = { ...code, max_uses: 2, uses_used: 1, uses_reserved: 1 };
    expect(discountCodeStatus(held, now, counting)).toBe("used_up");
    expect(discountCodeStatus(held, now, { countHeldUses: false })).toBe("active");
  });
});
