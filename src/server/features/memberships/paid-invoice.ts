import type Stripe from "stripe";
import type { Database } from "../../db/database";
import {
  invoiceMoneyOf,
  invoiceTaxRateId,
  type OrderMoney,
  paidAsIs,
  type RecordedBuyer,
  readCheckoutSession,
} from "../orders";

/**
 * A paid invoice of a membership and what its order records besides it, all read from Stripe before the
 * order's transaction (as every Stripe read of a webhook handler is).
 */
export interface PaidInvoice {
  invoice: Stripe.Invoice;
  /** Its main tax's rate: an invoice names the rate by id only (`total_taxes[].tax_rate_details`). */
  taxRate: Stripe.TaxRate | undefined;
  /** A business buyer recorded with the membership's first checkout (name, VAT number, its VIES check). */
  buyer: RecordedBuyer | undefined;
  /**
   * The waiver's wording, when the membership's Checkout session says the member accepted it and the
   * membership has not recorded it yet (memberships.withdrawal_waiver): read once, then every period's
   * order takes it from the membership.
   */
  waiverAccepted: string | undefined;
  /**
   * What the member paid and what it settled as in the store currency (docs/money.md,
   * orders/order-money.ts): the invoice's amount in the subscription's currency, unless Adaptive Pricing
   * charged the member in theirs (the charge's presentment) or a tier's fixed price in another currency
   * settled converted (the charge's balance transaction).
   */
  money: OrderMoney;
}

type PaidInvoiceDeps = { db: Database; stripe: Stripe };

/**
 * What a paid invoice's order needs from Stripe and from the membership's first checkout (the
 * subscription's `hold_id`). An invoice already recorded as an order needs nothing more (the
 * reconciliation reads the last days' invoices again every time).
 */
export async function readPaidInvoice(
  deps: PaidInvoiceDeps,
  account: string,
  invoice: Stripe.Invoice,
  subscription: Stripe.Subscription,
): Promise<PaidInvoice> {
  const none: PaidInvoice = {
    invoice,
    taxRate: undefined,
    buyer: undefined,
    waiverAccepted: undefined,
    money: paidAsIs(invoice.amount_paid, invoice.currency),
  };
  if (invoice.status !== "paid" || (await invoiceRecorded(deps.db, invoice.id))) return none;
  const rateId = invoice.automatic_tax?.enabled ? invoiceTaxRateId(invoice) : undefined;
  const taxRate = rateId
    ? await deps.stripe.taxRates.retrieve(rateId, {}, { stripeAccount: account })
    : undefined;
  const checkout = await firstCheckout(deps.db, account, subscription.metadata?.hold_id);
  return {
    invoice,
    taxRate,
    buyer: checkout,
    waiverAccepted: checkout ? await acceptedWaiver(deps, checkout, subscription.id) : undefined,
    money: await invoiceMoney(deps, account, invoice, subscription),
  };
}

/** The payment intent of a paid invoice (API 2025+: in its payments, when read with them expanded). */
export function paymentIntentOf(invoice: Stripe.Invoice): string | null {
  const payment = invoice.payments?.data?.[0]?.payment;
  const intent = payment?.payment_intent;
  return typeof intent === "string" ? intent : (intent?.id ?? null);
}

/**
 * What a paid invoice means in money, read from its payment when it was charged in another currency than
 * the store's: the member's own with Adaptive Pricing (the subscription's `presentment_details`), or a
 * tier's fixed price in another currency (settled in the account's, which is the store's:
 * store-currency.ts requires it for both).
 */
async function invoiceMoney(
  deps: PaidInvoiceDeps,
  account: string,
  invoice: Stripe.Invoice,
  subscription: Stripe.Subscription,
): Promise<OrderMoney> {
  const sellerId = subscription.metadata?.seller_id;
  const store = sellerId
    ? await deps.db
        .selectFrom("profiles")
        .select("store_currency")
        .where("id", "=", sellerId)
        .executeTakeFirst()
    : undefined;
  return invoiceMoneyOf(
    deps.stripe,
    {
      invoice,
      paymentIntent: paymentIntentOf(invoice),
      presentmentCurrency: subscription.presentment_details?.presentment_currency,
    },
    account,
    store?.store_currency ?? invoice.currency,
  );
}

async function invoiceRecorded(db: Database, invoiceId: string): Promise<boolean> {
  const order = await db
    .selectFrom("orders")
    .select("id")
    .where("stripe_session_id", "=", invoiceId)
    .executeTakeFirst();
  return order !== undefined;
}

/** The checkout that started the subscription (Subscribe put its id in the subscription's metadata). */
function firstCheckout(db: Database, account: string, holdId: string | undefined) {
  if (!holdId) return Promise.resolve(undefined);
  return db
    .selectFrom("checkouts")
    .select([
      "id",
      "stripe_session_id",
      "stripe_account_id",
      "created_at",
      "buyer_business_name",
      "buyer_tax_id",
      "buyer_tax_id_check",
      "withdrawal_waiver",
    ])
    .where("id", "=", holdId)
    .where("stripe_account_id", "=", account)
    .executeTakeFirst();
}

/**
 * The waiver asked on the membership's Checkout, if Stripe says the member accepted it
 * (`consent.terms_of_service`) and the membership does not hold it yet. Stripe keeps the consent on the
 * session only, so it is read from there once.
 */
async function acceptedWaiver(
  deps: PaidInvoiceDeps,
  checkout: NonNullable<Awaited<ReturnType<typeof firstCheckout>>>,
  subscriptionId: string,
): Promise<string | undefined> {
  if (!checkout.withdrawal_waiver) return undefined;
  const membership = await deps.db
    .selectFrom("memberships")
    .select("withdrawal_waiver")
    .where("stripe_subscription_id", "=", subscriptionId)
    .executeTakeFirst();
  if (membership?.withdrawal_waiver) return undefined;
  const session = await readCheckoutSession(deps.stripe, checkout);
  return session?.consent?.terms_of_service === "accepted" ? checkout.withdrawal_waiver : undefined;
}
