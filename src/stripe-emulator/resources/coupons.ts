import type Stripe from "stripe";
import { z } from "zod";
import type { ApiRoutes } from "../api.js";
import type { Emulator } from "../emulator.js";
import { invalidRequest, parameterInvalid, StripeApiError } from "../errors.js";
import { newCouponId } from "../ids.js";
import { paginate } from "../lists.js";
import { buildCoupon, refreshCouponValidity } from "../objects/coupon.js";
import {
  decimal,
  emptyable,
  inRange,
  integer,
  listParams,
  mergeMetadata,
  metadata,
  nonNegativeInteger,
  parseParams,
  range,
  requiredText,
  text,
} from "../params.js";
import type { Scope } from "../state/types.js";

const createSchema = z.strictObject({
  id: requiredText().optional(),
  percent_off: decimal().optional(),
  amount_off: nonNegativeInteger().optional(),
  currency: z
    .string()
    .regex(/^[a-zA-Z]{3}$/)
    .transform((value) => value.toLowerCase())
    .optional(),
  duration: z.enum(["forever", "once", "repeating"]).optional(),
  duration_in_months: integer().optional(),
  max_redemptions: integer().optional(),
  redeem_by: integer().optional(),
  name: text().optional(),
  metadata: metadata().optional(),
});

const updateSchema = z.strictObject({ name: emptyable().optional(), metadata: metadata().optional() });

const listSchema = z.strictObject({ ...listParams, created: range().optional() });

/** A coupon of the caller's account, checked as Stripe does before it is redeemed. */
export function redeemableCoupon(
  emulator: Emulator,
  account: Scope,
  id: string,
  param: string,
): Stripe.Coupon {
  const coupon = emulator.store.get("coupons", account, id, "coupon", param);
  refreshCouponValidity(coupon, emulator.now());
  if (!coupon.valid) throw invalidRequest(`Coupon ${id} is no longer valid.`, param, "coupon_expired");
  return coupon;
}

/** Counts a redemption (a paid Checkout Session); the coupon stops being valid at `max_redemptions`. */
export function redeemCoupon(emulator: Emulator, account: Scope, coupon: Stripe.Coupon): void {
  coupon.times_redeemed += 1;
  refreshCouponValidity(coupon, emulator.now());
  emulator.store.put("coupons", account, coupon);
}

export function registerCoupons(routes: ApiRoutes, emulator: Emulator): void {
  const { store } = emulator;

  routes.post("/v1/coupons", ({ account, params }) => {
    const input = parseParams(createSchema, params);
    const now = emulator.now();
    if (input.percent_off !== undefined && input.amount_off !== undefined) {
      throw new StripeApiError(
        400,
        "invalid_request_error",
        "You may only specify one of these parameters: amount_off, percent_off.",
        "parameters_exclusive",
        "amount_off",
      );
    }
    if (input.percent_off === undefined && input.amount_off === undefined) {
      throw invalidRequest("You must pass either `amount_off` or `percent_off`.", "percent_off");
    }
    if (input.percent_off !== undefined && (input.percent_off <= 0 || input.percent_off > 100)) {
      throw parameterInvalid(
        "percent_off",
        "Invalid percent_off: must be greater than 0 and less than or equal to 100.",
        "parameter_invalid_decimal",
      );
    }
    if (input.amount_off !== undefined && !input.currency) {
      throw invalidRequest(
        "You must pass a `currency` when creating a coupon with `amount_off`.",
        "currency",
      );
    }
    const duration = input.duration ?? "once";
    if (duration === "repeating" && input.duration_in_months === undefined) {
      throw invalidRequest(
        "You must pass `duration_in_months` when `duration` is `repeating`.",
        "duration_in_months",
        "parameter_missing",
      );
    }
    if (duration !== "repeating" && input.duration_in_months !== undefined) {
      throw invalidRequest(
        "You can only pass `duration_in_months` when `duration` is `repeating`.",
        "duration_in_months",
      );
    }
    if (input.duration_in_months !== undefined && input.duration_in_months < 1) {
      throw parameterInvalid(
        "duration_in_months",
        `Invalid integer: ${input.duration_in_months}`,
        "parameter_invalid_integer",
      );
    }
    if (input.max_redemptions !== undefined && input.max_redemptions < 1) {
      throw parameterInvalid(
        "max_redemptions",
        `Invalid integer: ${input.max_redemptions}`,
        "parameter_invalid_integer",
      );
    }
    if (input.redeem_by !== undefined && input.redeem_by <= now) {
      throw invalidRequest("Coupon redeem_by must be in the future.", "redeem_by");
    }
    if (input.id && store.find("coupons", account, input.id)) {
      throw invalidRequest("Coupon already exists.", "id", "resource_already_exists");
    }
    const coupon = buildCoupon(input.id ?? newCouponId(), now, {
      percentOff: input.percent_off ?? null,
      amountOff: input.amount_off ?? null,
      currency: input.amount_off !== undefined ? (input.currency ?? null) : null,
      duration,
      durationInMonths: input.duration_in_months ?? null,
      name: input.name ?? null,
      maxRedemptions: input.max_redemptions ?? null,
      redeemBy: input.redeem_by ?? null,
      metadata: mergeMetadata({}, input.metadata),
    });
    store.put("coupons", account, coupon);
    return coupon;
  });

  routes.get("/v1/coupons/:id", ({ account, id }) => {
    const coupon = store.get("coupons", account, id, "coupon");
    refreshCouponValidity(coupon, emulator.now());
    return coupon;
  });

  routes.post("/v1/coupons/:id", ({ account, id, params }) => {
    const coupon = store.get("coupons", account, id, "coupon");
    const input = parseParams(updateSchema, params);
    if (input.name !== undefined) coupon.name = input.name;
    coupon.metadata = mergeMetadata(coupon.metadata ?? {}, input.metadata);
    store.put("coupons", account, coupon);
    return coupon;
  });

  // Deleting a coupon stops new redemptions; discounts already made from it keep applying, as in Stripe.
  routes.delete("/v1/coupons/:id", ({ account, id }): Stripe.DeletedCoupon => {
    store.get("coupons", account, id, "coupon");
    store.delete("coupons", account, id);
    return { id, object: "coupon", deleted: true };
  });

  routes.get("/v1/coupons", ({ account, params }) => {
    const input = parseParams(listSchema, params);
    const coupons = store.list("coupons", account).filter((coupon) => inRange(coupon.created, input.created));
    for (const coupon of coupons) refreshCouponValidity(coupon, emulator.now());
    return paginate(coupons, input, "/v1/coupons", "coupon");
  });
}
