import type Stripe from "stripe";
import type { Emulator } from "../emulator.js";
import { invalidRequest, parameterInvalid, parameterMissing, StripeApiError } from "../errors.js";
import type { Scope } from "../state/types.js";
import { redeemableCoupon } from "./coupons.js";

// What a Checkout Session offers beside its prices: a free trial and a coupon.

/** Stripe wants a Checkout trial to end at least two days after the session is created. */
const MIN_TRIAL_END_SECONDS = 48 * 60 * 60;

export interface TrialParams {
  trial_period_days?: number | undefined;
  trial_end?: number | undefined;
}

export interface DiscountParams {
  allow_promotion_codes?: boolean | undefined;
  discounts?: { coupon?: string | undefined; promotion_code?: string | undefined }[] | undefined;
}

/** `subscription_data[trial_period_days]` or `[trial_end]`, checked as Stripe does. */
export function checkTrial(data: TrialParams | undefined, now: number): boolean {
  const days = data?.trial_period_days;
  const end = data?.trial_end;
  if (days !== undefined && end !== undefined) {
    throw new StripeApiError(
      400,
      "invalid_request_error",
      "You may only specify one of these parameters: subscription_data[trial_end], subscription_data[trial_period_days].",
      "parameters_exclusive",
      "subscription_data[trial_end]",
    );
  }
  if (days !== undefined && (days < 1 || days > 730)) {
    throw parameterInvalid(
      "subscription_data[trial_period_days]",
      "The trial period must be between 1 and 730 days.",
      "parameter_invalid_integer",
    );
  }
  if (end !== undefined && end < now + MIN_TRIAL_END_SECONDS) {
    throw parameterInvalid(
      "subscription_data[trial_end]",
      "The `trial_end` date has to be at least 2 days in the future.",
      "parameter_invalid_integer",
    );
  }
  return days !== undefined || end !== undefined;
}

/** The coupon of `discounts`: one coupon, not with `allow_promotion_codes`. */
export function sessionCoupon(
  emulator: Emulator,
  account: Scope,
  input: DiscountParams,
): Stripe.Coupon | null {
  const discounts = input.discounts ?? [];
  if (discounts.length === 0) return null;
  if (input.allow_promotion_codes) {
    throw new StripeApiError(
      400,
      "invalid_request_error",
      "You may only specify one of these parameters: allow_promotion_codes, discounts.",
      "parameters_exclusive",
      "allow_promotion_codes",
    );
  }
  if (discounts.length > 1) throw invalidRequest("You may only specify one discount.", "discounts");
  const [first] = discounts;
  if (first?.promotion_code !== undefined) {
    throw invalidRequest(
      "Promotion codes are not emulated; pass a coupon instead.",
      "discounts[0][promotion_code]",
    );
  }
  if (!first?.coupon) throw parameterMissing("discounts[0][coupon]");
  return redeemableCoupon(emulator, account, first.coupon, "discounts[0][coupon]");
}

/** Spreads the session's discount over its line items in proportion (the last one takes the rounding). */
export function spreadDiscount(lineItems: Stripe.LineItem[], discount: number): void {
  const subtotal = lineItems.reduce((sum, item) => sum + item.amount_subtotal, 0);
  let left = discount;
  lineItems.forEach((item, index) => {
    const share =
      index === lineItems.length - 1
        ? left
        : Math.min(left, Math.round((discount * item.amount_subtotal) / Math.max(subtotal, 1)));
    left -= share;
    item.amount_discount = share;
    item.amount_total = item.amount_subtotal - share;
  });
}
