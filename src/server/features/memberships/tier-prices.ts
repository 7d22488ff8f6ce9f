import type Stripe from "stripe";
import type { BillingInterval } from "../../../contracts/memberships";
import type { Database } from "../../db/database";
import type { TierPriceTaxBehavior } from "../../db/schema";

/** What a tier's price is made of on Stripe. */
export interface TierPriceRequest {
  tierId: string;
  /** The name members see on Checkout and their invoices: the product's, then the tier's. */
  name: string;
  interval: BillingInterval;
  amountCents: number;
  /** The store currency, which the tier's prices are amounts of. */
  currency: string;
  stripeAccountId: string;
  /**
   * Stripe Tax's part (tax/checkout-tax.ts, checkoutTaxParams): the price's tax behaviour and its
   * product's tax code while the store collects tax; neither otherwise.
   */
  taxBehavior?: Stripe.PriceCreateParams.TaxBehavior | undefined;
  taxCode?: string | undefined;
}

/**
 * The Stripe price of a tier at this amount, interval and tax treatment on the seller's account, made the
 * first time a buyer subscribes at it. Stripe's prices are immutable (and a price's tax behaviour is set
 * once): a tier's new amount, or the store starting to collect tax, makes a new price, and members keep
 * paying the one they subscribed at (product rules, "Memberships"). Two buyers making the same price at
 * once both get one; the idempotency key makes Stripe answer both with the same.
 */
export async function tierPrice(db: Database, stripe: Stripe, request: TierPriceRequest): Promise<string> {
  const key = {
    tier_id: request.tierId,
    billing_interval: request.interval,
    amount_cents: request.amountCents,
    stripe_account_id: request.stripeAccountId,
    tax_behavior: storedBehavior(request.taxBehavior),
    tax_code: request.taxCode ?? "",
    currency: request.currency,
  };
  const known = await db
    .selectFrom("membership_tier_prices")
    .select("stripe_price_id")
    .where("tier_id", "=", key.tier_id)
    .where("billing_interval", "=", key.billing_interval)
    .where("amount_cents", "=", key.amount_cents)
    .where("stripe_account_id", "=", key.stripe_account_id)
    .where("tax_behavior", "=", key.tax_behavior)
    .where("tax_code", "=", key.tax_code)
    .where("currency", "=", key.currency)
    .executeTakeFirst();
  if (known) return known.stripe_price_id;
  const price = await stripe.prices.create(
    {
      currency: request.currency,
      unit_amount: request.amountCents,
      recurring: { interval: request.interval },
      ...(key.tax_behavior !== "unspecified" ? { tax_behavior: key.tax_behavior } : {}),
      product_data: { name: request.name, ...(request.taxCode ? { tax_code: request.taxCode } : {}) },
      metadata: { tier_id: request.tierId },
    },
    {
      stripeAccount: request.stripeAccountId,
      idempotencyKey: tierPriceIdempotencyKey(key),
    },
  );
  await db
    .insertInto("membership_tier_prices")
    .values({ ...key, stripe_price_id: price.id })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
  return price.id;
}

/** The behaviour as the cache keeps it: Stripe's `unspecified` for a price made without one. */
function storedBehavior(behavior: string | undefined): TierPriceTaxBehavior {
  return behavior === "inclusive" || behavior === "exclusive" ? behavior : "unspecified";
}

/** One key per price: the same tier, amount and interval with another tax treatment is another price. */
function tierPriceIdempotencyKey(key: {
  tier_id: string;
  billing_interval: BillingInterval;
  amount_cents: number;
  tax_behavior: string;
  tax_code: string;
  currency: string;
}): string {
  // A US-dollar price keeps the key it always had.
  const base = `tier-price-${key.tier_id}-${key.billing_interval}-${key.amount_cents}${key.currency === "usd" ? "" : `-${key.currency}`}`;
  // A price without tax keeps the key it always had.
  return key.tax_behavior === "unspecified" && !key.tax_code
    ? base
    : `${base}-${key.tax_behavior}-${key.tax_code || "no-code"}`;
}
