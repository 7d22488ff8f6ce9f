import type Stripe from "stripe";
import { BILLING_MESSAGES } from "../../../contracts/seller";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import type { SignedInUser } from "../../http/session";
import { ensureBillingCustomer } from "./billing-customer";
import { planPriceId } from "./plan-price";
import { sellerStatus } from "./seller-status";

export interface BillingDeps {
  db: Database;
  stripe: Stripe;
  appUrl: string;
}

/** create-subscription-checkout: a Stripe Checkout page for the $10/month plan. Returns its URL. */
export async function startPlanCheckout(deps: BillingDeps, seller: SignedInUser, now: Date): Promise<string> {
  const status = await sellerStatus(deps.db, seller.id, now);
  if (status.standing === "active" || status.standing === "grace") {
    throw new AppError("already_subscribed", 409, BILLING_MESSAGES.alreadySubscribed);
  }
  // A subscription Stripe is still retrying would charge alongside a new one: fix the card instead.
  if (status.subscription && ["past_due", "unpaid"].includes(status.subscription.status)) {
    throw new AppError("payment_retrying", 409, BILLING_MESSAGES.fixCardInstead);
  }
  const [customer, price] = await Promise.all([
    ensureBillingCustomer(deps.db, deps.stripe, seller),
    planPriceId(deps.stripe),
  ]);
  const session = await deps.stripe.checkout.sessions.create({
    mode: "subscription",
    customer,
    line_items: [{ price, quantity: 1 }],
    client_reference_id: seller.id,
    subscription_data: { metadata: { seller_id: seller.id } },
    success_url: `${deps.appUrl}/dashboard?subscription=success`,
    cancel_url: `${deps.appUrl}/dashboard`,
  });
  if (!session.url) throw new Error("Stripe returned a checkout session without a URL");
  return session.url;
}
