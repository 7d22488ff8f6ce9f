import type Stripe from "stripe";

export interface CouponFields {
  percentOff: number | null;
  amountOff: number | null;
  currency: string | null;
  duration: Stripe.Coupon.Duration;
  durationInMonths: number | null;
  name: string | null;
  maxRedemptions: number | null;
  redeemBy: number | null;
  metadata: Stripe.Metadata;
}

export function buildCoupon(id: string, created: number, fields: CouponFields): Stripe.Coupon {
  return {
    id,
    object: "coupon",
    amount_off: fields.amountOff,
    created,
    currency: fields.currency,
    duration: fields.duration,
    duration_in_months: fields.durationInMonths,
    livemode: false,
    max_redemptions: fields.maxRedemptions,
    metadata: fields.metadata,
    name: fields.name,
    percent_off: fields.percentOff,
    redeem_by: fields.redeemBy,
    times_redeemed: 0,
    valid: true,
  };
}

/** A coupon stops being valid once redeemed `max_redemptions` times or past `redeem_by`. */
export function refreshCouponValidity(coupon: Stripe.Coupon, now: number): void {
  coupon.valid =
    (coupon.max_redemptions === null || coupon.times_redeemed < coupon.max_redemptions) &&
    (coupon.redeem_by === null || coupon.redeem_by > now);
}

/** What the coupon takes off `amount` (a positive subtotal), in the smallest currency unit. */
export function couponAmount(coupon: Stripe.Coupon, amount: number): number {
  if (amount <= 0) return 0;
  if (coupon.percent_off !== null) return Math.round((amount * coupon.percent_off) / 100);
  return Math.min(coupon.amount_off ?? 0, amount);
}

export interface DiscountFields {
  coupon: Stripe.Coupon;
  customer: string | null;
  subscription: string | null;
  checkoutSession: string | null;
  invoice: string | null;
  start: number;
  /** For `repeating` coupons: when the discount stops applying. */
  end: number | null;
}

/** The application of a coupon to a subscription (or a Checkout Session / invoice): `di_…`. */
export function buildDiscount(id: string, fields: DiscountFields): Stripe.Discount {
  return {
    id,
    object: "discount",
    checkout_session: fields.checkoutSession,
    customer: fields.customer,
    customer_account: null,
    end: fields.end,
    invoice: fields.invoice,
    invoice_item: null,
    promotion_code: null,
    source: { coupon: fields.coupon.id, type: "coupon" },
    start: fields.start,
    subscription: fields.subscription,
    subscription_item: null,
  };
}
