import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import type { VisitSource } from "../../../contracts/analytics";
import { type BillingInterval, MEMBERSHIP_MESSAGES } from "../../../contracts/memberships";
import { ORDER_MESSAGES, PURCHASE_RULES } from "../../../contracts/orders";
import { commitChange } from "../../adapters/events/commit-change";
import { AppError } from "../../http/errors";
import type { CheckoutVisitor } from "../../http/visitor";
import { NO_SOURCE, recordCheckoutSource } from "../analytics";
import { tierPrice } from "../memberships";
import { settleCheckout } from "../orders";
import { getPublicProduct } from "../products";
import type { CheckoutDeps } from "./create-checkout";

const EXPIRY_MARGIN_MS = 15_000;
const newHoldId = () => `hold_${randomBytes(12).toString("base64url")}`;

/** What a buyer picked on a membership's page. */
export interface MembershipChoice {
  tierId: string;
  interval: BillingInterval;
}

/**
 * Subscribe: a Stripe Checkout session in subscription mode on the seller's own account (a direct
 * charge, no application fee: we take 0%), for one open tier at its monthly or yearly price, with the
 * tier's free trial. Nothing scarce is held (memberships have no stock), so the checkout is recorded
 * only to carry the visit's source and to be settled like any other (orders/settle-checkouts.ts). The
 * membership itself comes from Stripe's subscription events (features/memberships), never from here.
 */
export async function createMembershipCheckout(
  deps: CheckoutDeps,
  productId: string,
  choice: MembershipChoice,
  visitor: CheckoutVisitor,
  now: Date,
  source: VisitSource = NO_SOURCE,
): Promise<string> {
  const product = await getPublicProduct(deps.db, productId, now);
  if (product.kind !== "membership") {
    throw new AppError("not_purchasable", 409, MEMBERSHIP_MESSAGES.notAMembership);
  }
  if (!product.purchasable) throw new AppError("not_purchasable", 409, ORDER_MESSAGES.notPurchasable);
  // Only open tiers are public: a closed or removed one is refused like an unknown one.
  const tier = product.tiers.find((candidate) => candidate.id === choice.tierId);
  if (!tier) {
    throw new AppError("validation_error", 400, MEMBERSHIP_MESSAGES.tierNotOffered, { field: "tierId" });
  }
  const amountCents = choice.interval === "year" ? tier.yearlyPriceCents : tier.monthlyPriceCents;
  if (amountCents === null) {
    throw new AppError("validation_error", 400, MEMBERSHIP_MESSAGES.yearlyNotOffered, { field: "interval" });
  }
  const seller = await deps.db
    .selectFrom("profiles")
    .select(["stripe_connect_account_id", "stripe_connect_onboarding_complete"])
    .where("id", "=", product.seller.id)
    .executeTakeFirstOrThrow();
  if (!seller.stripe_connect_onboarding_complete || !seller.stripe_connect_account_id) {
    throw new AppError("not_purchasable", 409, ORDER_MESSAGES.notPurchasable);
  }
  const account = seller.stripe_connect_account_id;
  const holdId = newHoldId();
  try {
    const price = await tierPrice(deps.db, deps.stripe, {
      tierId: tier.id,
      name: `${product.title}: ${tier.name}`,
      interval: choice.interval,
      amountCents,
      stripeAccountId: account,
    });
    const expiresAt = new Date(now.getTime() + PURCHASE_RULES.checkoutMinutes * 60_000 + EXPIRY_MARGIN_MS);
    await commitChange(deps, async (trx) => {
      await trx
        .insertInto("checkouts")
        .values({
          id: holdId,
          stripe_session_id: null,
          stripe_account_id: account,
          seller_id: product.seller.id,
          product_id: product.id,
          reservation: "none",
          network_hash: visitor.networkHash,
          visitor_hash: visitor.visitorHash,
          expires_at: expiresAt,
          created_at: now,
          discount_code_id: null,
          code_hold_ends_at: null,
          discount_code: null,
          original_price_cents: amountCents,
          membership_tier_id: tier.id,
          billing_interval: choice.interval,
        })
        .execute();
      await recordCheckoutSource(trx, holdId, source);
    });
    // The subscription carries who it is for: the membership events read it back from Stripe.
    const metadata = {
      product_id: product.id,
      seller_id: product.seller.id,
      tier_id: tier.id,
      hold_id: holdId,
    };
    const session = await deps.stripe.checkout.sessions.create(
      {
        mode: "subscription",
        line_items: [{ price, quantity: 1 }],
        subscription_data: {
          metadata,
          ...(tier.trialDays > 0 ? { trial_period_days: tier.trialDays } : {}),
        },
        metadata,
        expires_at: Math.floor(expiresAt.getTime() / 1000),
        success_url: `${deps.appUrl}/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${deps.appUrl}/product/${product.id}`,
      },
      { stripeAccount: account, idempotencyKey: `checkout-${holdId}` },
    );
    await deps.db
      .updateTable("checkouts")
      .set({ stripe_session_id: session.id })
      .where("id", "=", holdId)
      .execute();
    if (!session.url) throw new Error("Stripe returned a checkout session without a URL");
    return session.url;
  } catch (error) {
    // Nothing was held: a recorded checkout without a session simply ends.
    await settleCheckout(deps, holdId, undefined, now).catch(() => {});
    if (error instanceof Stripe.errors.StripeError) {
      throw new AppError("not_purchasable", 409, ORDER_MESSAGES.notPurchasable);
    }
    throw error;
  }
}
