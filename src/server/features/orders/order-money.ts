import type Stripe from "stripe";

/**
 * What a payment means in money (docs/money.md): what the buyer paid, in their currency (Stripe's
 * presentment), and what it settled as in the store currency, which every total adds up. One rule for
 * a paid Checkout session (a sale) and a membership's paid invoice (a period):
 * - Paid in the store currency: the same amount.
 * - Adaptive Pricing: the payment stays in the integration (store) currency and Stripe guarantees that
 *   amount; `presentment_details` (the session's, or the invoice's charge's) says what the buyer saw
 *   and paid.
 * - A fixed price in another currency: Stripe converted the charge into the account's currency, which
 *   is the store's (store-currency.ts requires it): the charge's balance transaction says how much.
 */
export interface OrderMoney {
  amountCents: number;
  currency: string;
  settlementCents: number;
  settlementCurrency: string;
}

/** A payment settled as it was paid: in its own currency, the same amount. */
export function paidAsIs(total: number, currency: string): OrderMoney {
  return { amountCents: total, currency, settlementCents: total, settlementCurrency: currency };
}

type Presentment = { presentment_amount: number; presentment_currency: string };
type Settled = { amount: number; currency: string };

/** The rule itself, once the payment's total, what the buyer was charged and Stripe's booking are known. */
function moneyOf(
  total: number,
  currency: string,
  presentment: Presentment | null | undefined,
  settled: Settled | undefined,
): OrderMoney {
  if (presentment && presentment.presentment_currency !== currency) {
    return {
      amountCents: presentment.presentment_amount,
      currency: presentment.presentment_currency,
      settlementCents: total,
      settlementCurrency: currency,
    };
  }
  return {
    amountCents: total,
    currency,
    settlementCents: settled?.amount ?? total,
    settlementCurrency: settled?.currency ?? currency,
  };
}

/** A paid Checkout session (a one-time sale). */
export async function orderMoneyOf(
  stripe: Stripe,
  session: Stripe.Checkout.Session,
  account: string,
  storeCurrency: string,
): Promise<OrderMoney> {
  const total = session.amount_total ?? 0;
  const currency = session.currency ?? storeCurrency;
  const presentment = session.presentment_details;
  const converted = presentment !== undefined && presentment.presentment_currency !== currency;
  const intentId =
    typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
  const settled =
    !converted && currency !== storeCurrency && total > 0 && intentId
      ? (await readCharge(stripe, intentId, account)).settled
      : undefined;
  return moneyOf(total, currency, presentment, settled);
}

/**
 * A membership's paid invoice (a period; memberships/paid-invoice.ts), the first and every renewal
 * alike. The invoice is in the subscription's currency; its charge says the rest: with Adaptive Pricing
 * (the subscription's `presentment_details` names the member's currency) what the member was charged
 * in it, and for a tier's fixed price in another currency than the store's what Stripe booked.
 */
export async function invoiceMoneyOf(
  stripe: Stripe,
  payment: {
    invoice: Pick<Stripe.Invoice, "amount_paid" | "currency">;
    paymentIntent: string | null;
    /** The subscription's `presentment_details.presentment_currency`, when Adaptive Pricing converts it. */
    presentmentCurrency: string | undefined;
  },
  account: string,
  storeCurrency: string,
): Promise<OrderMoney> {
  const total = payment.invoice.amount_paid;
  const currency = payment.invoice.currency;
  const converted = payment.presentmentCurrency !== undefined && payment.presentmentCurrency !== currency;
  if (total === 0 || !payment.paymentIntent || (!converted && currency === storeCurrency)) {
    return paidAsIs(total, currency);
  }
  const charge = await readCharge(stripe, payment.paymentIntent, account);
  return moneyOf(total, currency, charge.presentment, charge.settled);
}

/**
 * A payment intent's charge as Stripe booked it: what the card was charged in the buyer's currency
 * (`presentment_details`, Adaptive Pricing) and its balance transaction, which Stripe books in the
 * account's currency (converted from the charge's).
 */
async function readCharge(
  stripe: Stripe,
  paymentIntentId: string,
  account: string,
): Promise<{ presentment: Presentment | undefined; settled: Settled | undefined }> {
  const intent = await stripe.paymentIntents.retrieve(
    paymentIntentId,
    { expand: ["latest_charge.balance_transaction"] },
    { stripeAccount: account },
  );
  const charge = typeof intent.latest_charge === "object" ? intent.latest_charge : undefined;
  const transaction = charge?.balance_transaction;
  return {
    presentment: charge?.presentment_details ?? intent.presentment_details,
    settled:
      transaction && typeof transaction === "object"
        ? { amount: transaction.amount, currency: transaction.currency }
        : undefined,
  };
}
