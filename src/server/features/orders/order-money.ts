import type Stripe from "stripe";

/**
 * What a paid Checkout session means in money (docs/money.md): what the buyer paid, in their currency
 * (Stripe's presentment), and what it settled as in the store currency, which every total adds up.
 * - Paid in the store currency: the same amount.
 * - Adaptive Pricing: the session stays in the integration (store) currency and Stripe guarantees that
 *   amount; `presentment_details` says what the buyer saw and paid.
 * - A fixed price in another currency: Stripe converted the charge into the account's currency, which
 *   is the store's (store-currency.ts requires it): the charge's balance transaction says how much.
 */
export interface OrderMoney {
  amountCents: number;
  currency: string;
  settlementCents: number;
  settlementCurrency: string;
}

export async function orderMoneyOf(
  stripe: Stripe,
  session: Stripe.Checkout.Session,
  account: string,
  storeCurrency: string,
): Promise<OrderMoney> {
  const total = session.amount_total ?? 0;
  const currency = session.currency ?? storeCurrency;
  const presentment = session.presentment_details;
  if (presentment && presentment.presentment_currency !== currency) {
    return {
      amountCents: presentment.presentment_amount,
      currency: presentment.presentment_currency,
      settlementCents: total,
      settlementCurrency: currency,
    };
  }
  const paid = { amountCents: total, currency };
  if (currency === storeCurrency || total === 0) {
    return { ...paid, settlementCents: total, settlementCurrency: currency };
  }
  const settled = await settledByStripe(stripe, session, account);
  return settled
    ? { ...paid, settlementCents: settled.amount, settlementCurrency: settled.currency }
    : { ...paid, settlementCents: total, settlementCurrency: currency };
}

/** The charge's balance transaction: the amount Stripe booked in the account's currency. */
async function settledByStripe(
  stripe: Stripe,
  session: Stripe.Checkout.Session,
  account: string,
): Promise<{ amount: number; currency: string } | undefined> {
  const intentId =
    typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
  return intentId ? chargeSettlement(stripe, intentId, account) : undefined;
}

/**
 * What a payment intent's charge settled as: its balance transaction, which Stripe books in the account's
 * currency (converted from the charge's). A membership's paid invoice in another currency than the
 * store's reads its payment's the same way (memberships/paid-invoice.ts).
 */
export async function chargeSettlement(
  stripe: Stripe,
  paymentIntentId: string,
  account: string,
): Promise<{ amount: number; currency: string } | undefined> {
  const intent = await stripe.paymentIntents.retrieve(
    paymentIntentId,
    { expand: ["latest_charge.balance_transaction"] },
    { stripeAccount: account },
  );
  const charge = intent.latest_charge;
  const transaction = typeof charge === "object" ? charge?.balance_transaction : undefined;
  if (!transaction || typeof transaction === "string") return undefined;
  return { amount: transaction.amount, currency: transaction.currency };
}
