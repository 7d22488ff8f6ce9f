import type Stripe from "stripe";
import {
  buyerCurrency,
  convertAmount,
  hasRate,
  impliedRate,
  presentmentAmount,
  presentmentRate,
} from "../currencies.js";
import type { Emulator } from "../emulator.js";
import type { Settlement } from "../objects/payment.js";
import { accountSupportsCurrency, settlementCurrency } from "../resources/country-specs.js";
import type { Scope } from "../state/types.js";

/*
 * Adaptive Pricing on hosted Checkout (`adaptive_pricing[enabled]=true`, payment and subscription mode).
 * The session keeps the integration's `currency` and `amount_total`; the hosted page offers the buyer
 * their local currency (their country from the page request's `Accept-Language` region, see
 * currencies.ts) at the table's rate plus the conversion fee, with a way to pay in the integration
 * currency instead. Paid in the local currency, every payment keeps the integration amount and currency
 * and says what the card was charged in `presentment_details` (the PaymentIntent's and the charge's; the
 * session's too), and the account's balance gets the integration amount (converted to its
 * `default_currency` at the table's rate when that is another currency): the fee is the buyer's, as
 * Stripe guarantees the merchant the price. A subscription keeps the chosen currency
 * (`presentment_details.presentment_currency`) and charges each invoice in it at that day's rate.
 */

/** What the buyer is offered in their currency: `amount` of `currency`, at 1 integration unit = `rate`. */
export interface Presentment {
  currency: string;
  amount: number;
  rate: number;
}

/**
 * The buyer's local currency, when the hosted page converts the session for them: Adaptive Pricing on,
 * something to pay now, a local currency other than the session's that the account can charge.
 */
export function offeredCurrency(
  emulator: Emulator,
  account: Scope,
  session: Stripe.Checkout.Session,
  acceptLanguage: string | undefined,
): string | undefined {
  const integration = session.currency;
  if (!integration || !session.adaptive_pricing?.enabled) return undefined;
  if ((session.amount_total ?? 0) <= 0) return undefined;
  const local = buyerCurrency(acceptLanguage);
  if (!local || local === integration || !hasRate(local) || !hasRate(integration)) return undefined;
  return accountSupportsCurrency(emulator, account, local) ? local : undefined;
}

/** An integration amount in the buyer's `currency`: the table's rate plus the conversion fee, rounded up. */
export function presentmentFor(amount: number, integration: string, currency: string): Presentment {
  return {
    currency,
    amount: presentmentAmount(amount, integration, currency),
    rate: presentmentRate(integration, currency),
  };
}

/** The session's total in `currency`, as the page shows it and the buyer pays it. */
export function presentmentOf(session: Stripe.Checkout.Session, currency: string): Presentment {
  return presentmentFor(session.amount_total ?? 0, session.currency ?? "usd", currency);
}

/**
 * What a subscription paid with Adaptive Pricing charges for `amount` of its invoice's `currency`: the
 * amount in the currency the customer chose (`presentment_details.presentment_currency`), at the rate
 * of the day it is charged. `undefined` for a subscription paid in its own currency.
 */
export function subscriptionPresentment(
  subscription: Stripe.Subscription | undefined,
  amount: number,
  currency: string,
): Presentment | undefined {
  const chosen = subscription?.presentment_details?.presentment_currency;
  if (!chosen || chosen === currency || !hasRate(chosen) || !hasRate(currency)) return undefined;
  return presentmentFor(amount, currency, chosen);
}

/** The `presentment_details` of a payment (PaymentIntent, charge, session) charged as `presentment` says. */
export function presentmentDetails(presentment: Presentment): {
  presentment_amount: number;
  presentment_currency: string;
} {
  return { presentment_amount: presentment.amount, presentment_currency: presentment.currency };
}

/**
 * What a payment in the buyer's currency brings the account: the integration `amount` of `currency`, in
 * the account's `default_currency` (converted at the table's rate if it is another), with the rate it
 * implies from what the card was charged.
 */
export function presentmentSettlement(
  emulator: Emulator,
  account: Scope,
  integration: { amount: number; currency: string },
  presentment: Presentment,
): Settlement {
  const target = settlementCurrency(emulator, account);
  const amount = convertAmount(integration.amount, integration.currency, target);
  return {
    amount,
    currency: target,
    exchangeRate: impliedRate(presentment.amount, presentment.currency, amount, target),
  };
}
