import type Stripe from "stripe";
import { convertAmount, hasRate, proportion, tableRate } from "../currencies.js";
import type { Emulator } from "../emulator.js";
import { newId } from "../ids.js";
import {
  type BalanceMovement,
  buildBalanceTransaction,
  buildCharge,
  buildPaymentIntent,
  markPaymentIntentSucceeded,
  type PaymentFields,
  type Settlement,
} from "../objects/payment.js";
import { settlementCurrency } from "../resources/country-specs.js";
import type { Scope } from "../state/types.js";
import type { EventOrigin } from "../webhooks/events.js";
import { type Presentment, presentmentDetails, presentmentSettlement } from "./adaptive-pricing.js";

/**
 * Charges a card through a new PaymentIntent, as Checkout and invoices do, with Stripe's events in
 * Stripe's order: `payment_intent.created`, `charge.succeeded`, `payment_intent.succeeded`. With
 * `presentment` (Adaptive Pricing) the card is charged in the buyer's currency: the PaymentIntent and
 * charge keep the integration amount and say so in `presentment_details`, and the account gets the
 * integration amount (adaptive-pricing.ts); otherwise a charge in another currency than the account's is
 * converted at the table's rate.
 */
export function chargeCard(
  emulator: Emulator,
  account: Scope,
  input: Omit<PaymentFields, "presentment">,
  origin: EventOrigin,
  presentment?: Presentment,
): { paymentIntent: Stripe.PaymentIntent; charge: Stripe.Charge } {
  const { store, events } = emulator;
  const now = emulator.now();
  const fields: PaymentFields = presentment
    ? { ...input, presentment: presentmentDetails(presentment) }
    : input;
  const settled = presentment ? presentmentSettlement(emulator, account, fields, presentment) : undefined;
  const paymentIntent = buildPaymentIntent(newId("pi"), now, fields);
  store.put("paymentIntents", account, paymentIntent);
  events.emit(account, { type: "payment_intent.created", data: { object: paymentIntent } }, origin);

  const chargeId = newId("ch");
  const balanceTransaction = recordBalanceMovement(emulator, account, {
    kind: "charge",
    source: chargeId,
    amount: fields.amount,
    currency: fields.currency,
    description: fields.description,
    settled,
  });
  const charge = buildCharge(chargeId, now, fields, {
    paymentIntent: paymentIntent.id,
    balanceTransaction: balanceTransaction.id,
    receiptUrl: `${emulator.publicUrl}/receipts/payment/${chargeId}`,
  });
  store.put("charges", account, charge);
  events.emit(account, { type: "charge.succeeded", data: { object: charge } }, origin);

  markPaymentIntentSucceeded(paymentIntent, charge);
  store.put("paymentIntents", account, paymentIntent);
  events.emit(account, { type: "payment_intent.succeeded", data: { object: paymentIntent } }, origin);
  return { paymentIntent, charge };
}

/** Books a movement on the account's balance, in its settlement currency (see `settle`). */
export function recordBalanceMovement(
  emulator: Emulator,
  account: Scope,
  movement: BalanceMovement,
): Stripe.BalanceTransaction {
  const settled = movement.settled ?? settle(emulator, account, movement.amount, movement.currency);
  const transaction = buildBalanceTransaction(newId("txn"), emulator.now(), { ...movement, settled });
  emulator.store.put("balanceTransactions", account, transaction);
  return transaction;
}

/**
 * An amount in another currency than the account's `default_currency`, converted to it at the table's
 * rate (currencies.ts); `undefined` when it already is in that currency.
 */
export function settle(
  emulator: Emulator,
  account: Scope,
  amount: number,
  currency: string,
): Settlement | undefined {
  const target = settlementCurrency(emulator, account);
  if (currency === target || !hasRate(currency) || !hasRate(target)) return undefined;
  return {
    amount: convertAmount(amount, currency, target),
    currency: target,
    exchangeRate: tableRate(currency, target),
  };
}

/**
 * Part of a charge (a refund, a dispute, a won dispute's reversal) at the rate its charge was booked
 * at, so that giving the whole charge back takes out exactly what it brought in. `undefined` when the
 * charge was booked in its own currency.
 */
export function settleLikeCharge(
  emulator: Emulator,
  account: Scope,
  charge: Stripe.Charge,
  amount: number,
): Settlement | undefined {
  const id =
    typeof charge.balance_transaction === "string"
      ? charge.balance_transaction
      : charge.balance_transaction?.id;
  const booked = id ? emulator.store.find("balanceTransactions", account, id) : undefined;
  if (!booked || booked.exchange_rate === null) return undefined;
  return {
    amount: proportion(amount, Math.abs(booked.amount), charge.amount),
    currency: booked.currency,
    exchangeRate: booked.exchange_rate,
  };
}
