import { sql } from "kysely";
import type Stripe from "stripe";
import {
  type BillingInterval,
  MEMBERSHIP_CHANGE_MESSAGES,
  MEMBERSHIP_MESSAGES,
  type MembershipChangePreview,
} from "../../../contracts/memberships";
import { commitChange } from "../../adapters/events/commit-change";
import { AppError } from "../../http/errors";
import { checkoutTaxParams, checkoutTaxTerms, productTaxCategory } from "../tax";
import { readSubscription } from "./events/membership-events";
import type { MemberActionDeps } from "./member-actions";
import { applySubscription } from "./membership-changes";
import { tierPrice } from "./tier-prices";

export interface MembershipChoice {
  tierId: string;
  interval: BillingInterval;
}

/**
 * What a switch would be: the member's own live membership (by the library link's email), a tier of
 * the same product open to new members (or their own tier at the other interval), and its Stripe price.
 */
async function planChange(
  deps: MemberActionDeps,
  membershipId: string,
  email: string,
  choice: MembershipChoice,
) {
  const membership = await deps.db
    .selectFrom("memberships")
    .selectAll()
    .where("id", "=", membershipId)
    .where(sql<string>`lower(customer_email)`, "=", email.toLowerCase())
    .executeTakeFirst();
  if (!membership) throw new AppError("not_a_member", 404, MEMBERSHIP_MESSAGES.membershipNotFound);
  if (!["active", "trialing"].includes(membership.status) || membership.access_revoked_at) {
    throw new AppError("membership_ended", 409, MEMBERSHIP_CHANGE_MESSAGES.notChangeable);
  }
  if (membership.tier_id === choice.tierId && membership.billing_interval === choice.interval) {
    throw new AppError("validation_error", 400, MEMBERSHIP_CHANGE_MESSAGES.sameChoice);
  }
  const tier = await deps.db
    .selectFrom("membership_tiers")
    .innerJoin("products", "products.id", "membership_tiers.product_id")
    .select([
      "membership_tiers.id",
      "membership_tiers.name",
      "membership_tiers.monthly_price_cents",
      "membership_tiers.yearly_price_cents",
      "membership_tiers.closed",
      "membership_tiers.removed_at",
      "products.title",
      (eb) =>
        eb
          .selectFrom("profiles")
          .select("profiles.store_currency")
          .whereRef("profiles.id", "=", "products.user_id")
          .as("store_currency"),
    ])
    .where("membership_tiers.id", "=", choice.tierId)
    .where("membership_tiers.product_id", "=", membership.product_id ?? "")
    .executeTakeFirst();
  const ownTier = tier?.id === membership.tier_id;
  if (!tier || tier.removed_at || (tier.closed && !ownTier)) {
    throw new AppError("validation_error", 400, MEMBERSHIP_CHANGE_MESSAGES.tierUnavailable, {
      field: "tierId",
    });
  }
  const amounts = await tierAmountsIn(deps, tier, membership.currency);
  const amountCents = choice.interval === "year" ? amounts.yearly : amounts.monthly;
  if (amountCents === null) {
    throw new AppError("validation_error", 400, MEMBERSHIP_MESSAGES.yearlyNotOffered, { field: "interval" });
  }
  const options = { stripeAccount: membership.stripe_account_id };
  const subscription = await deps.stripe.subscriptions.retrieve(
    membership.stripe_subscription_id,
    {},
    options,
  );
  const item = subscription.items.data[0];
  if (!item) throw new Error(`subscription ${subscription.id} has no item`);
  const tax = await switchTaxParams(deps, membership, subscription);
  const price = await tierPrice(deps.db, deps.stripe, {
    tierId: tier.id,
    name: `${tier.title}: ${tier.name}`,
    interval: choice.interval,
    amountCents,
    // The member keeps paying in the currency they subscribed in (Stripe can't change a subscription's).
    currency: subscription.currency,
    stripeAccountId: membership.stripe_account_id,
    taxBehavior: tax.price.tax_behavior,
    taxCode: tax.product.tax_code,
  });
  return { membership, tier, amountCents, price, item, options };
}

/**
 * The tier's prices in the member's currency: the tier's own in the store currency, else its fixed price
 * in that currency. A subscription keeps its currency for good, so a tier without a price in it is
 * refused, never switched into another currency.
 */
async function tierAmountsIn(
  deps: MemberActionDeps,
  tier: {
    id: string;
    monthly_price_cents: number;
    yearly_price_cents: number | null;
    store_currency: string | null;
  },
  currency: string,
): Promise<{ monthly: number; yearly: number | null }> {
  if (currency === tier.store_currency) {
    return { monthly: tier.monthly_price_cents, yearly: tier.yearly_price_cents };
  }
  const other = await deps.db
    .selectFrom("membership_tier_currency_prices")
    .select(["monthly_cents", "yearly_cents"])
    .where("tier_id", "=", tier.id)
    .where("currency", "=", currency)
    .executeTakeFirst();
  if (!other) {
    throw new AppError("currency_not_offered", 422, MEMBERSHIP_MESSAGES.tierNoPriceIn(currency), {
      field: "tierId",
    });
  }
  return { monthly: other.monthly_cents, yearly: other.yearly_cents };
}

/**
 * The new price's tax treatment, as Subscribe's (tax/checkout-tax.ts): a subscription Stripe Tax runs on
 * (it did when the member subscribed) gets a price with the store's tax behaviour and the product's tax
 * code; one without, a price without either.
 */
async function switchTaxParams(
  deps: MemberActionDeps,
  membership: { seller_id: string; product_id: string | null },
  subscription: Stripe.Subscription,
) {
  const terms = await checkoutTaxTerms(deps.db, membership.seller_id);
  const category = await productTaxCategory(deps.db, membership.product_id ?? "");
  const taxed = { ...terms, collect: Boolean(subscription.automatic_tax?.enabled) };
  return checkoutTaxParams(taxed, category, null, undefined);
}

const lineOf = (line: Stripe.InvoiceLineItem) => ({
  description: line.description ?? "",
  amountCents: line.amount,
});

/**
 * What switching costs now, as Stripe prorates it to this second: shown before the member confirms.
 * Nothing changes on Stripe or here.
 */
export async function previewMembershipChange(
  deps: MemberActionDeps,
  membershipId: string,
  email: string,
  choice: MembershipChoice,
): Promise<MembershipChangePreview> {
  const plan = await planChange(deps, membershipId, email, choice);
  const prorationDate = Math.floor(deps.now().getTime() / 1000);
  const preview = await deps.stripe.invoices.createPreview(
    {
      customer: plan.membership.stripe_customer_id,
      subscription: plan.membership.stripe_subscription_id,
      subscription_details: {
        items: [{ id: plan.item.id, price: plan.price }],
        proration_behavior: "always_invoice",
        proration_date: prorationDate,
      },
    },
    plan.options,
  );
  // When the switch invoices nothing now (a trial prorates nothing), the preview is the next renewal:
  // nothing is due now and no credit is left.
  const invoicedNow = preview.billing_reason !== "upcoming";
  return {
    tierName: plan.tier.name,
    interval: choice.interval,
    amountCents: plan.amountCents,
    amountDueCents: invoicedNow ? Math.max(0, preview.amount_due) : 0,
    creditCents: invoicedNow ? Math.max(0, -preview.total) : 0,
    lines: invoicedNow ? preview.lines.data.map(lineOf) : [],
    prorationDate,
  };
}

/**
 * The switch, billed as the preview showed (the same proration moment): Stripe invoices the difference
 * at once on the member's card; the membership is read back and applied now, and the invoice's order
 * comes with its `invoice.paid` event.
 */
export async function confirmMembershipChange(
  deps: MemberActionDeps,
  membershipId: string,
  email: string,
  choice: MembershipChoice & { prorationDate: number },
): Promise<void> {
  const plan = await planChange(deps, membershipId, email, choice);
  await deps.stripe.subscriptions.update(
    plan.membership.stripe_subscription_id,
    {
      items: [{ id: plan.item.id, price: plan.price }],
      proration_behavior: "always_invoice",
      proration_date: choice.prorationDate,
    },
    {
      ...plan.options,
      idempotencyKey: `change-${membershipId}-${choice.tierId}-${choice.interval}-${choice.prorationDate}`,
    },
  );
  const read = await readSubscription(
    deps,
    plan.membership.stripe_account_id,
    plan.membership.stripe_subscription_id,
  );
  await commitChange(deps, (trx, announce) => applySubscription(deps, trx, read, deps.now(), announce));
}
