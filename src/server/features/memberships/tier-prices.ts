import type Stripe from "stripe";
import type { BillingInterval } from "../../../contracts/memberships";
import type { Database } from "../../db/database";

/** What a tier's price is made of on Stripe. */
export interface TierPriceRequest {
  tierId: string;
  /** The name members see on Checkout and their invoices: the product's, then the tier's. */
  name: string;
  interval: BillingInterval;
  amountCents: number;
  stripeAccountId: string;
}

/**
 * The Stripe price of a tier at this amount and interval on the seller's account, made the first time a
 * buyer subscribes at it. Stripe's prices are immutable: a tier's new amount makes a new price, and
 * members keep paying the one they subscribed at (product rules, "Memberships"). Two buyers making the
 * same price at once both get one; the idempotency key makes Stripe answer both with the same.
 */
export async function tierPrice(db: Database, stripe: Stripe, request: TierPriceRequest): Promise<string> {
  const key = {
    tier_id: request.tierId,
    billing_interval: request.interval,
    amount_cents: request.amountCents,
    stripe_account_id: request.stripeAccountId,
  };
  const known = await db
    .selectFrom("membership_tier_prices")
    .select("stripe_price_id")
    .where("tier_id", "=", key.tier_id)
    .where("billing_interval", "=", key.billing_interval)
    .where("amount_cents", "=", key.amount_cents)
    .where("stripe_account_id", "=", key.stripe_account_id)
    .executeTakeFirst();
  if (known) return known.stripe_price_id;
  const price = await stripe.prices.create(
    {
      currency: "usd",
      unit_amount: request.amountCents,
      recurring: { interval: request.interval },
      product_data: { name: request.name },
      metadata: { tier_id: request.tierId },
    },
    {
      stripeAccount: request.stripeAccountId,
      idempotencyKey: `tier-price-${request.tierId}-${request.interval}-${request.amountCents}`,
    },
  );
  await db
    .insertInto("membership_tier_prices")
    .values({ ...key, stripe_price_id: price.id })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
  return price.id;
}
