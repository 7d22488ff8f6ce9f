import type Stripe from "stripe";
import type { Emulator } from "../emulator.js";
import { newId } from "../ids.js";
import {
  type BalanceMovement,
  buildBalanceTransaction,
  buildCharge,
  buildPaymentIntent,
  markPaymentIntentSucceeded,
  type PaymentFields,
} from "../objects/payment.js";
import type { Scope } from "../state/types.js";
import type { EventOrigin } from "../webhooks/events.js";

/**
 * Charges a card through a new PaymentIntent, as Checkout and invoices do, with Stripe's events in
 * Stripe's order: `payment_intent.created`, `charge.succeeded`, `payment_intent.succeeded`.
 */
export function chargeCard(
  emulator: Emulator,
  account: Scope,
  fields: PaymentFields,
  origin: EventOrigin,
): { paymentIntent: Stripe.PaymentIntent; charge: Stripe.Charge } {
  const { store, events } = emulator;
  const now = emulator.now();
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

export function recordBalanceMovement(
  emulator: Emulator,
  account: Scope,
  movement: BalanceMovement,
): Stripe.BalanceTransaction {
  const transaction = buildBalanceTransaction(newId("txn"), emulator.now(), movement);
  emulator.store.put("balanceTransactions", account, transaction);
  return transaction;
}
