import type Stripe from "stripe";
import { type CardCheck, type CardInput, checkCard } from "../cards.js";
import type { Emulator } from "../emulator.js";
import { invalidRequest } from "../errors.js";
import { newId } from "../ids.js";
import { snapshot } from "../state/snapshot.js";
import type { SavedCard, Scope } from "../state/types.js";
import type { EventOrigin } from "../webhooks/events.js";
import { payInvoice } from "./invoices.js";
import { emitUpdated } from "./subscriptions.js";

export type InvoicePayment = { ok: true; invoice: Stripe.Invoice } | Extract<CardCheck, { ok: false }>;

/** An invoice and the account it lives on, found by id alone (hosted page, control API). */
export function findInvoice(
  emulator: Emulator,
  id: string,
): { account: Scope; invoice: Stripe.Invoice } | undefined {
  const owned = emulator.store.state.invoices[id];
  return owned ? { account: owned.account, invoice: owned.object } : undefined;
}

/** A card typed on a hosted page, saved on the customer. */
export function saveCard(
  emulator: Emulator,
  customer: string,
  card: Extract<CardCheck, { ok: true }>,
): SavedCard {
  const saved: SavedCard = {
    id: newId("pm"),
    customer,
    brand: card.brand,
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
  };
  emulator.store.set("cards", saved.id, saved);
  return saved;
}

/** The hosted invoice page's "Pay": the card is checked (declines as in Checkout), then charged. */
export function payInvoiceWithCard(
  emulator: Emulator,
  account: Scope,
  invoice: Stripe.Invoice,
  input: CardInput,
  origin: EventOrigin,
): InvoicePayment {
  if (invoice.status !== "open") {
    throw invalidRequest(`Invoice ${invoice.id} is ${invoice.status}; only an open invoice can be paid.`);
  }
  const card = checkCard(input, emulator.now());
  if (!card.ok) return card;
  const saved = saveCard(emulator, String(invoice.customer), card);
  recoverInvoice(emulator, account, invoice, saved, origin);
  return { ok: true, invoice };
}

/**
 * Pays an open invoice with a card the customer just gave (hosted invoice page, portal card update): the
 * payment's events, `invoice.paid`, `invoice.payment_succeeded`; the card becomes the customer's default
 * (`customer.updated`) and the subscription's, and a past-due subscription is active again
 * (`customer.subscription.updated`).
 */
export function recoverInvoice(
  emulator: Emulator,
  account: Scope,
  invoice: Stripe.Invoice,
  card: SavedCard,
  origin: EventOrigin,
): void {
  const { store, events } = emulator;
  const customer = store.get("customers", account, String(invoice.customer), "customer");
  payInvoice(emulator, account, invoice, customer, card, origin);

  const previousSettings = snapshot(customer.invoice_settings);
  customer.invoice_settings.default_payment_method = card.id;
  store.put("customers", account, customer);
  events.emit(
    account,
    {
      type: "customer.updated",
      data: { object: customer, previous_attributes: { invoice_settings: previousSettings } },
    },
    origin,
  );

  const subscriptionId = invoice.parent?.subscription_details?.subscription;
  const subscription =
    typeof subscriptionId === "string" ? store.find("subscriptions", account, subscriptionId) : undefined;
  if (!subscription || subscription.status === "canceled") return;
  const previous: Partial<Stripe.Subscription> = {
    default_payment_method: subscription.default_payment_method,
  };
  subscription.default_payment_method = card.id;
  if (subscription.status === "past_due" && subscription.latest_invoice === invoice.id) {
    previous.status = subscription.status;
    subscription.status = "active";
  }
  emitUpdated(emulator, account, subscription, previous, origin);
}
