import { describe, expect, it } from "vitest";
import { DISCOUNT_MESSAGES, type DiscountCode } from "../../../contracts/discounts";
import {
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
    const back = toDiscountFormValues({
      ...saved,
      startsAt: new Date(2026, 5, 1).toISOString(),
      endsAt: new Date(2026, 6, 1).toISOString(),
    });
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
      discountFormProblems({
        ...EMPTY_DISCOUNT_FORM,
        code: "a b",
        value: "0",
        appliesTo: "chosen",
        startsOn: "2026-06-10",
        endsOn: "2026-06-01",
      }),
    ).toEqual({
      code: DISCOUNT_MESSAGES.codeCharacters,
      value: DISCOUNT_MESSAGES.percentInvalid,
      productIds: DISCOUNT_MESSAGES.productsRequired,
      endsOn: DISCOUNT_MESSAGES.endBeforeStart,
    });
    expect(discountFormProblems({ ...EMPTY_DISCOUNT_FORM, code: "summer", value: "20" })).toEqual({});
  });

  it("puts the server's field problems on the form's fields", () => {
    expect(formProblemsOf({ code: DISCOUNT_MESSAGES.codeTaken, startsAt: "Enter a valid date" })).toEqual({
      code: DISCOUNT_MESSAGES.codeTaken,
      startsOn: "Enter a valid date",
    });
  });
});
