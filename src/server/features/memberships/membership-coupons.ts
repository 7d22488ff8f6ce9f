import type Stripe from "stripe";
import type { Database } from "../../db/database";

/** A discount code as a Stripe coupon takes it: what it takes off, and for how many payments. */
export interface CouponRequest {
  codeId: string;
  code: string;
  kind: "percent" | "amount";
  /** Percent off (1-100), or an amount off in `currency`'s minor unit. */
  value: number;
  currency: string;
  duration: "once" | "forever";
  stripeAccountId: string;
}

/**
 * The Stripe coupon of a discount code on the seller's account, made the first time a member subscribes
 * with it at this value and duration (coupons are immutable: a code edited later makes a new one).
 * Stripe applies it to the subscription's invoices: the first only (`once`) or every one (`forever`).
 */
export async function membershipCoupon(
  db: Database,
  stripe: Stripe,
  request: CouponRequest,
): Promise<string> {
  const key = {
    discount_code_id: request.codeId,
    stripe_account_id: request.stripeAccountId,
    kind: request.kind,
    value: request.value,
    duration: request.duration,
  };
  const known = await db
    .selectFrom("discount_code_coupons")
    .select("stripe_coupon_id")
    .where("discount_code_id", "=", key.discount_code_id)
    .where("stripe_account_id", "=", key.stripe_account_id)
    .where("kind", "=", key.kind)
    .where("value", "=", key.value)
    .where("duration", "=", key.duration)
    .executeTakeFirst();
  if (known) return known.stripe_coupon_id;
  const coupon = await stripe.coupons.create(
    {
      name: request.code,
      duration: request.duration,
      ...(request.kind === "percent"
        ? { percent_off: request.value }
        : { amount_off: request.value, currency: request.currency }),
      metadata: { discount_code_id: request.codeId },
    },
    {
      stripeAccount: request.stripeAccountId,
      idempotencyKey: `coupon-${request.codeId}-${request.kind}-${request.value}-${request.duration}`,
    },
  );
  await db
    .insertInto("discount_code_coupons")
    .values({ ...key, stripe_coupon_id: coupon.id })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
  return coupon.id;
}
