import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import type { VisitSource } from "../../../contracts/analytics";
import { offeredCurrency } from "../../../contracts/currencies";
import { DISCOUNT_REFUSAL_MESSAGES } from "../../../contracts/discounts";
import { DEFAULT_LOCALE } from "../../../contracts/i18n/locales";
import { type BillingInterval, MEMBERSHIP_MESSAGES, type Tier } from "../../../contracts/memberships";
import { ORDER_MESSAGES, PURCHASE_RULES } from "../../../contracts/orders";
import type { BusinessBuyer } from "../../../contracts/tax";
import { commitChange } from "../../adapters/events/commit-change";
import { AppError } from "../../http/errors";
import type { CheckoutVisitor } from "../../http/visitor";
import { NO_SOURCE, recordCheckoutSource } from "../analytics";
import { type CodeTry, evaluateDiscountCode, holdCodeUse } from "../discounts";
import { membershipCoupon, tierPrice } from "../memberships";
import { settleCheckout } from "../orders";
import { getPublicProduct, tierInCurrency } from "../products";
import { adaptivePricingFor } from "../store-currency";
import {
  checkBusinessBuyer,
  checkoutTaxParams,
  checkoutTaxTerms,
  createBusinessCustomer,
  productTaxCategory,
  waiverRequired,
  withdrawalWaiverText,
} from "../tax";
import { type CheckoutDeps, CODE_HOLD_MS, payoutAccountOf } from "./create-checkout";

const EXPIRY_MARGIN_MS = 15_000;
const newHoldId = () => `hold_${randomBytes(12).toString("base64url")}`;

/** What a buyer picked on a membership's page. */
export interface MembershipChoice {
  tierId: string;
  interval: BillingInterval;
  /** A discount code the buyer typed, counted against its network's tries (code-tries.ts). */
  code?: CodeTry | undefined;
  /** Subscribing as a business: the name and VAT number for the invoices (checked as Buy Now's). */
  business?: BusinessBuyer | undefined;
  /** The currency the page showed the tier's price in (its form's `currency`); the tier must have a price in it. */
  currency?: string | undefined;
}

/**
 * Subscribe: a Stripe Checkout session in subscription mode on the seller's own account (a direct
 * charge, no application fee: we take 0%), for one open tier at its monthly or yearly price, with the
 * tier's free trial. Nothing scarce is held (memberships have no stock), so the checkout is recorded
 * to carry the visit's source, a business buyer's details and the withdrawal waiver asked (every period's
 * order takes them from it), and to be settled like any other (orders/settle-checkouts.ts). Tax is as
 * Buy Now's (tax/checkout-tax.ts): while the store collects it, Stripe Tax on the session and the
 * subscription's invoices, and a tier price with the store's tax behaviour and the product's tax code.
 * With the seller's Adaptive Pricing on, a checkout in the store currency asks Stripe for it (the member
 * then pays each period in their own currency: docs/money.md).
 * The membership itself comes from Stripe's subscription events (features/memberships), never from here.
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
  // The buyer's currency when the tier has a fixed price in it (docs/money.md): a Stripe price of its own.
  const currency = tierCheckoutCurrency(tier, visitor, choice);
  const priced = tierInCurrency(tier, currency);
  const amountCents = choice.interval === "year" ? priced.yearlyPriceCents : priced.monthlyPriceCents;
  if (amountCents === null) {
    throw new AppError("validation_error", 400, MEMBERSHIP_MESSAGES.yearlyNotOffered, { field: "interval" });
  }
  const account = await payoutAccountOf(deps.db, product.seller.id);
  // A business buyer's VAT number is checked before anything is held: refused, nothing changes.
  const business = choice.business
    ? await checkBusinessBuyer(deps, choice.business, visitor.networkHash, now)
    : undefined;
  const discount = choice.code
    ? await membershipDiscount(deps, { ...product, currency }, amountCents, choice.code, now)
    : undefined;
  const taxTerms = await checkoutTaxTerms(deps.db, product.seller.id);
  // The member's language: Checkout's, the waiver's wording, then the membership's emails' (every
  // renewal's too: the membership takes it from this checkout, sync-membership.ts).
  const locale = visitor.locale ?? DEFAULT_LOCALE;
  const waiver = waiverRequired(taxTerms, visitor.country) ? withdrawalWaiverText(locale) : null;
  const holdId = newHoldId();
  try {
    const expiresAt = new Date(now.getTime() + PURCHASE_RULES.checkoutMinutes * 60_000 + EXPIRY_MARGIN_MS);
    await commitChange(deps, async (trx) => {
      // A code with a maximum of uses holds one while the checkout is open, as Buy Now's does.
      if (discount && !(await holdCodeUse(trx, discount.evaluation.codeId))) {
        throw new AppError("discount_refused", 422, DISCOUNT_REFUSAL_MESSAGES.used_up, { reason: "used_up" });
      }
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
          discount_code_id: discount?.evaluation.codeId ?? null,
          code_hold_ends_at: discount?.evaluation.limitedUses ? new Date(now.getTime() + CODE_HOLD_MS) : null,
          discount_code: discount?.evaluation.code ?? null,
          original_price_cents: amountCents,
          discount_cents: discount?.evaluation.discountCents ?? 0,
          membership_tier_id: tier.id,
          billing_interval: choice.interval,
          buyer_business_name: business?.businessName ?? null,
          buyer_tax_id: business?.vat ? `${business.vat.prefix}${business.vat.number}` : null,
          buyer_tax_id_check: business?.check ? JSON.stringify(business.check) : null,
          withdrawal_waiver: waiver,
          buyer_locale: locale,
          currency,
        })
        .execute();
      await recordCheckoutSource(trx, holdId, source);
    });
    const customer = business
      ? await createBusinessCustomer(deps.stripe, account, business, taxTerms, `customer-${holdId}`)
      : undefined;
    const tax = checkoutTaxParams(taxTerms, await productTaxCategory(deps.db, product.id), waiver, customer);
    // Stripe's prices are immutable: the tier's price is the one made for this tax treatment.
    const price = await tierPrice(deps.db, deps.stripe, {
      tierId: tier.id,
      name: `${product.title}: ${tier.name}`,
      interval: choice.interval,
      amountCents,
      currency,
      stripeAccountId: account,
      taxBehavior: tax.price.tax_behavior,
      taxCode: tax.product.tax_code,
    });
    const coupon = discount
      ? await membershipCoupon(deps.db, deps.stripe, { ...discount.coupon, stripeAccountId: account })
      : undefined;
    // Adaptive Pricing as Buy Now asks for it: a member whose currency the tier has no price in may pay in
    // theirs; the subscription stays in the store currency and Stripe converts each payment.
    const adaptive = await adaptivePricingFor(deps.db, product.seller.id, currency);
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
        currency,
        line_items: [{ price, quantity: 1 }],
        subscription_data: {
          metadata,
          ...(tier.trialDays > 0 ? { trial_period_days: tier.trialDays } : {}),
        },
        metadata,
        ...tax.session,
        ...(adaptive ? { adaptive_pricing: { enabled: true } } : {}),
        locale: visitor.locale ?? "auto",
        ...(coupon ? { discounts: [{ coupon }] } : {}),
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
    // A recorded checkout without a session simply ends, giving back the code's use it held.
    await settleCheckout(deps, holdId, undefined, now).catch(() => {});
    if (error instanceof Stripe.errors.StripeError) {
      throw new AppError("not_purchasable", 409, ORDER_MESSAGES.notPurchasable);
    }
    throw error;
  }
}

/**
 * The currency of a subscription (docs/money.md): the one the page showed the tier's price in (its form's
 * `currency`, which the tier must have a price in, else 422 currency_not_offered), else the one the
 * buyer's request asks for when the tier has a price in it, else the store's. A subscription keeps its
 * currency for good (Stripe can't change it), so switching tier later stays in it (change-membership.ts).
 */
function tierCheckoutCurrency(tier: Tier, visitor: CheckoutVisitor, choice: MembershipChoice): string {
  const chosen = choice.currency?.trim().toLowerCase();
  if (!chosen) return offeredCurrency(tier, visitor.currency);
  if (offeredCurrency(tier, chosen) !== chosen) {
    throw new AppError("currency_not_offered", 422, MEMBERSHIP_MESSAGES.tierNoPriceIn(chosen), {
      field: "currency",
    });
  }
  return chosen;
}

/**
 * A code on a membership: evaluated on the chosen price like Buy Now's (unknown, expired, used up, not
 * for this product: refused with its reason), and the coupon that makes Stripe take it off the first
 * payment or every payment, as the seller chose for the code.
 */
async function membershipDiscount(
  deps: CheckoutDeps,
  product: { id: string; currency: string; seller: { id: string } },
  amountCents: number,
  code: CodeTry,
  now: Date,
) {
  const priced = {
    id: product.id,
    sellerId: product.seller.id,
    priceCents: amountCents,
    currency: product.currency,
  };
  const evaluation = await evaluateDiscountCode(deps.db, priced, code, now, { countHeldUses: false });
  if (!evaluation.ok) {
    throw new AppError("discount_refused", 422, evaluation.message, { reason: evaluation.reason });
  }
  const rule = await deps.db
    .selectFrom("discount_codes")
    .select(["kind", "value", "membership_duration", "currency"])
    .where("id", "=", evaluation.codeId)
    .where("seller_id", "=", product.seller.id)
    .executeTakeFirstOrThrow();
  return {
    evaluation,
    coupon: {
      codeId: evaluation.codeId,
      code: evaluation.code,
      kind: rule.kind,
      value: rule.value,
      currency: rule.currency ?? product.currency,
      duration: rule.membership_duration,
    },
  };
}
