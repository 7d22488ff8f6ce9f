import { describe, expect, it } from "vitest";
import { CURRENCY_MESSAGES } from "../../../contracts/currencies";
import { DISCOUNT_MESSAGES, type DiscountCode } from "../../../contracts/discounts";
import {
  amountOffProblem,
  discountFormProblems,
  EMPTY_DISCOUNT_FORM,
  formProblemsOf,
  toDiscountFields,
  toDiscountFormValues,
} from "./discount-form-values";

const saved: DiscountCode = {
  id: "dc_1",
  code: "SPRING",
  kind: "amount",
  value: 450,
  currency: "usd",
  allProducts: false,
  productIds: ["p1"],
  startsAt: null,
  endsAt: null,
  maxUses: 5,
  membershipDuration: "once",
  paused: false,
  status: "active",
  uses: 0,
  usesHeld: 0,
  revenueCents: 0,
  createdAt: "2026-01-01T00:00:00.000Z",
};

describe("the discount form's values", () => {
  it("sends calendar days as local midnights, the end day included", () => {
    const fields = toDiscountFields({ ...EMPTY_DISCOUNT_FORM, startsOn: "2026-06-01", endsOn: "2026-06-30" });
    expect(fields.startsAt).toBe(new Date(2026, 5, 1).toISOString());
    expect(fields.endsAt).toBe(new Date(2026, 6, 1).toISOString());
    expect(toDiscountFields(EMPTY_DISCOUNT_FORM)).toMatchObject({ startsAt: null, endsAt: null });
  });

  it("gives a saved code back as it was typed", () => {
    const back = toDiscountFormValues(
      {
        ...saved,
        startsAt: new Date(2026, 5, 1).toISOString(),
        endsAt: new Date(2026, 6, 1).toISOString(),
      },
      "usd",
    );
    expect(back).toEqual({
      code: "SPRING",
      kind: "amount",
      value: "4.50",
      appliesTo: "chosen",
      productIds: ["p1"],
      startsOn: "2026-06-01",
      endsOn: "2026-06-30",
      maxUses: "5",
      membershipDuration: "once",
    });
    // Only the chosen products of a code limited to some are sent.
    expect(toDiscountFields({ ...back, appliesTo: "all" }).productIds).toEqual([]);
  });

  it("finds each field's problem before sending, as the server would", () => {
    expect(
      discountFormProblems(
        {
          ...EMPTY_DISCOUNT_FORM,
          code: "a b",
          value: "0",
          appliesTo: "chosen",
          startsOn: "2026-06-10",
          endsOn: "2026-06-01",
        },
        "usd",
      ),
    ).toEqual({
      code: DISCOUNT_MESSAGES.codeCharacters,
      value: DISCOUNT_MESSAGES.percentInvalid,
      productIds: DISCOUNT_MESSAGES.productsRequired,
      endsOn: DISCOUNT_MESSAGES.endBeforeStart,
    });
    expect(discountFormProblems({ ...EMPTY_DISCOUNT_FORM, code: "summer", value: "20" }, "usd")).toEqual({});
  });

  it("puts the server's field problems on the form's fields", () => {
    expect(formProblemsOf({ code: DISCOUNT_MESSAGES.codeTaken, startsAt: "Enter a valid date" })).toEqual({
      code: DISCOUNT_MESSAGES.codeTaken,
      startsOn: "Enter a valid date",
    });
  });
});

describe("an amount off in the store currency", () => {
  const amountOff = (value: string) => ({
    ...EMPTY_DISCOUNT_FORM,
    code: "SPRING",
    kind: "amount" as const,
    value,
  });

  it("keeps the contract's dollars and cents in a dollar store", () => {
    expect(discountFormProblems(amountOff("4.99"), "usd")).toEqual({});
    expect(discountFormProblems(amountOff("4.999"), "usd")).toEqual({
      value: DISCOUNT_MESSAGES.amountInvalid,
    });
    expect(toDiscountFormValues(saved, "usd").value).toBe("4.50");
  });

  it("reads whole yen in a yen store: 500 is ¥500, 4.50 is refused", () => {
    expect(discountFormProblems(amountOff("500"), "jpy")).toEqual({});
    expect(discountFormProblems(amountOff("¥500"), "jpy")).toEqual({});
    expect(discountFormProblems(amountOff("4.50"), "jpy")).toEqual({
      value: CURRENCY_MESSAGES.invalidPrice("jpy"),
    });
    expect(discountFormProblems(amountOff(""), "jpy")).toEqual({ value: DISCOUNT_MESSAGES.valueRequired });
    expect(amountOffProblem("1000000000", "jpy")).toBe("Amount off must be at most ¥99,999,999");
    // A saved yen code's 450 is ¥450, not ¥4.50; a code keeps the currency it was made in.
    expect(toDiscountFormValues({ ...saved, currency: "jpy" }, "jpy").value).toBe("450");
    expect(toDiscountFormValues(saved, "jpy").value).toBe("4.50");
  });

  it("reads euros with a comma too, and lists every field's problem in the form's order", () => {
    expect(discountFormProblems(amountOff("4,50"), "eur")).toEqual({});
    expect(
      discountFormProblems({ ...amountOff("abc"), code: "", appliesTo: "chosen", maxUses: "0" }, "eur"),
    ).toEqual({
      code: DISCOUNT_MESSAGES.codeRequired,
      value: CURRENCY_MESSAGES.invalidPrice("eur"),
      productIds: DISCOUNT_MESSAGES.productsRequired,
      maxUses: DISCOUNT_MESSAGES.maxUsesInvalid,
    });
    expect(Object.keys(discountFormProblems({ ...amountOff("abc"), code: "" }, "eur"))).toEqual([
      "code",
      "value",
    ]);
  });
});
