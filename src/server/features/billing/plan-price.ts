import type Stripe from "stripe";
import { PLAN_PRICE_CENTS } from "../../../contracts/seller";

const PLAN_LOOKUP_KEY = "flatfee_unlimited_monthly";
const priceIds = new WeakMap<Stripe, Promise<string>>();

/** The id of the $10/month price, found by lookup key or created once (idempotently). */
export function planPriceId(stripe: Stripe): Promise<string> {
  let id = priceIds.get(stripe);
  if (!id) {
    id = findOrCreatePlanPrice(stripe);
    id.catch(() => priceIds.delete(stripe));
    priceIds.set(stripe, id);
  }
  return id;
}

async function findOrCreatePlanPrice(stripe: Stripe): Promise<string> {
  const existing = await stripe.prices.list({ lookup_keys: [PLAN_LOOKUP_KEY], active: true, limit: 1 });
  if (existing.data[0]) return existing.data[0].id;
  const price = await stripe.prices.create(
    {
      currency: "usd",
      unit_amount: PLAN_PRICE_CENTS,
      recurring: { interval: "month" },
      product_data: { name: "Flatfee Unlimited" },
      lookup_key: PLAN_LOOKUP_KEY,
    },
    { idempotencyKey: `plan-price-${PLAN_LOOKUP_KEY}` },
  );
  return price.id;
}
