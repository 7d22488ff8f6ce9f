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
 * Adaptive Pricing on hosted Checkout (`adaptive_pricing[enabled]=true`, payment mode). The session keeps
 * the integration's `currency` and `amount_total`; the hosted page offers the buyer their local currency
 * (their country from the page request's `Accept-Language` region, see currencies.ts) at the table's
 * rate plus the conversion fee, with a way to pay in the integration currency instead. Paid in the local
 * currency: the PaymentIntent and charge are in it, the session gets `presentment_details`, and the
 * account's balance gets the integration amount (converted to its `default_currency` at the table's rate
 * when that is another currency): the fee is the buyer's, as Stripe guarantees the merchant the price.
 */

/** What the buyer is offered in their currency: `amount` of `currency`, at 1 integration unit = `rate`. */
export interface Presentment {
  currency: string;
  amount: number;
  rate: number;
}

/**
 * The buyer's local currency, when the hosted page converts the session for them: Adaptive Pricing on,
 * payment mode, something to pay, a local currency other than the session's that the account can charge.
 */
export function offeredCurrency(
  emulator: Emulator,
  account: Scope,
  session: Stripe.Checkout.Session,
  acceptLanguage: string | undefined,
): string | undefined {
  const integration = session.currency;
  if (!integration || session.mode !== "payment" || !session.adaptive_pricing?.enabled) return undefined;
  if ((session.amount_total ?? 0) <= 0) return undefined;
  const local = buyerCurrency(acceptLanguage);
  if (!local || local === integration || !hasRate(local) || !hasRate(integration)) return undefined;
  return accountSupportsCurrency(emulator, account, local) ? local : undefined;
}

/** The session's total in `currency`, as the page shows it and the buyer pays it. */
export function presentmentOf(session: Stripe.Checkout.Session, currency: string): Presentment {
  const integration = session.currency ?? "usd";
  return {
    currency,
    amount: presentmentAmount(session.amount_total ?? 0, integration, currency),
    rate: presentmentRate(integration, currency),
  };
}

/**
 * What a payment in the buyer's currency brings the account: the integration amount, in the account's
 * `default_currency` (converted at the table's rate if it is another), with the rate it implies.
 */
export function presentmentSettlement(
  emulator: Emulator,
  account: Scope,
  session: Stripe.Checkout.Session,
  presentment: Presentment,
): Settlement {
  const integration = session.currency ?? "usd";
  const target = settlementCurrency(emulator, account);
  const amount = convertAmount(session.amount_total ?? 0, integration, target);
  return {
    amount,
    currency: target,
    exchangeRate: impliedRate(presentment.amount, presentment.currency, amount, target),
  };
}
