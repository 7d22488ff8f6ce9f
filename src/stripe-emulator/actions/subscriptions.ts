import type Stripe from "stripe";
import type { Emulator } from "../emulator.js";
import { invalidRequest } from "../errors.js";
import { newId } from "../ids.js";
import {
  buildInvoice,
  finalizeInvoice,
  markInvoicePaid,
  markInvoicePaymentFailed,
} from "../objects/invoice.js";
import { buildSubscription, setSubscriptionPeriod, subscriptionPeriod } from "../objects/subscription.js";
import { addInterval } from "../periods.js";
import { snapshot } from "../state/snapshot.js";
import type { SavedCard, Scope } from "../state/types.js";
import { AUTOMATIC, type EventOrigin } from "../webhooks/events.js";
import { chargeCard } from "./payments.js";

/** Stripe's Smart Retries spread attempts over days; the next one is announced on the invoice. */
const RETRY_AFTER_SECONDS = 3 * 86_400;

export interface NewSubscription {
  account: Scope;
  customer: Stripe.Customer;
  items: { price: Stripe.Price; quantity: number }[];
  metadata: Stripe.Metadata;
  description: string | null;
  card: SavedCard;
  origin: EventOrigin;
}

/**
 * A subscription paid at once (Checkout), with Stripe's events in Stripe's order: `invoice.created`,
 * `invoice.finalized`, `customer.subscription.created`, the payment's (see `chargeCard`), `invoice.paid`
 * and `invoice.payment_succeeded`.
 */
export function startSubscription(emulator: Emulator, input: NewSubscription) {
  const now = emulator.now();
  const firstPrice = input.items[0]?.price;
  if (!firstPrice?.recurring) throw invalidRequest("A subscription needs at least one recurring price.");
  const periodEnd = addInterval(now, firstPrice.recurring.interval, firstPrice.recurring.interval_count);
  const subscription = buildSubscription(newId("sub"), now, {
    customer: input.customer.id,
    currency: firstPrice.currency,
    items: input.items.map((item) => ({ id: newId("si"), price: item.price, quantity: item.quantity })),
    metadata: input.metadata,
    description: input.description,
    periodStart: now,
    periodEnd,
    defaultPaymentMethod: input.card.id,
    latestInvoice: null,
  });
  const invoice = openInvoice(
    emulator,
    input.account,
    input.customer,
    subscription,
    "subscription_create",
    { start: now, end: now },
    input.origin,
  );
  subscription.latest_invoice = invoice.id;
  emulator.store.put("subscriptions", input.account, subscription);
  emulator.events.emit(
    input.account,
    { type: "customer.subscription.created", data: { object: subscription } },
    input.origin,
  );
  payInvoice(emulator, input.account, invoice, input.customer, input.card, input.origin);
  return { subscription, invoice };
}

export type RenewalOutcome = "paid" | "failed";

/**
 * What Stripe does at the end of a period: bill the next one. A past-due subscription retries its open
 * invoice instead. `final` makes a failure the last retry, which cancels the subscription.
 */
export function renewSubscription(
  emulator: Emulator,
  account: Scope,
  subscription: Stripe.Subscription,
  outcome: RenewalOutcome,
  final: boolean,
  origin: EventOrigin = AUTOMATIC,
): Stripe.Subscription {
  if (subscription.status === "canceled") {
    throw invalidRequest(`The subscription ${subscription.id} is canceled and cannot be renewed.`);
  }
  if (subscription.cancel_at_period_end && subscription.status !== "past_due") {
    return endSubscription(emulator, account, subscription, "cancellation_requested", origin);
  }
  const now = emulator.now();
  const previous: Partial<Stripe.Subscription> = {
    status: subscription.status,
    latest_invoice: subscription.latest_invoice,
    items: snapshot(subscription.items),
  };
  const customer = emulator.store.get("customers", account, String(subscription.customer), "customer");
  const invoice =
    openInvoiceToRetry(emulator, account, subscription) ??
    advancePeriod(emulator, account, subscription, customer, origin);
  if (outcome === "paid") {
    payInvoice(emulator, account, invoice, customer, defaultCard(emulator, subscription), origin);
    subscription.status = "active";
    emitUpdated(emulator, account, subscription, previous, origin);
    return subscription;
  }
  markInvoicePaymentFailed(invoice, final ? null : now + RETRY_AFTER_SECONDS);
  emulator.store.put("invoices", account, invoice);
  emulator.events.emit(account, { type: "invoice.payment_failed", data: { object: invoice } }, origin);
  if (final) return endSubscription(emulator, account, subscription, "payment_failed", origin);
  subscription.status = "past_due";
  emitUpdated(emulator, account, subscription, previous, origin);
  return subscription;
}

export function endSubscription(
  emulator: Emulator,
  account: Scope,
  subscription: Stripe.Subscription,
  reason: Stripe.Subscription.CancellationDetails.Reason,
  origin: EventOrigin,
): Stripe.Subscription {
  if (subscription.status === "canceled") {
    throw invalidRequest(`The subscription ${subscription.id} is already canceled.`);
  }
  const now = emulator.now();
  subscription.status = "canceled";
  subscription.canceled_at = subscription.canceled_at ?? now;
  subscription.ended_at = now;
  // `cancel_at` stays as it was: the period end for a cancellation at period end, null when ended now.
  subscription.cancellation_details = {
    comment: subscription.cancellation_details?.comment ?? null,
    feedback: subscription.cancellation_details?.feedback ?? null,
    feedback_option: subscription.cancellation_details?.feedback_option ?? null,
    reason,
  };
  emulator.store.put("subscriptions", account, subscription);
  emulator.events.emit(
    account,
    { type: "customer.subscription.deleted", data: { object: subscription } },
    origin,
  );
  return subscription;
}

/** Cancel at period end, or undo it (`resume` in the portal). */
export function setCancelAtPeriodEnd(
  emulator: Emulator,
  account: Scope,
  subscription: Stripe.Subscription,
  cancel: boolean,
  origin: EventOrigin,
): Stripe.Subscription {
  if (subscription.cancel_at_period_end === cancel) return subscription;
  const previous: Partial<Stripe.Subscription> = {
    cancel_at_period_end: subscription.cancel_at_period_end,
    cancel_at: subscription.cancel_at,
    canceled_at: subscription.canceled_at,
    cancellation_details: snapshot(subscription.cancellation_details),
  };
  subscription.cancel_at_period_end = cancel;
  subscription.cancel_at = cancel ? subscriptionPeriod(subscription).end : null;
  subscription.canceled_at = cancel ? emulator.now() : null;
  subscription.cancellation_details = {
    comment: null,
    feedback: null,
    feedback_option: null,
    reason: cancel ? "cancellation_requested" : null,
  };
  emitUpdated(emulator, account, subscription, previous, origin);
  return subscription;
}

export function setDefaultPaymentMethod(
  emulator: Emulator,
  account: Scope,
  subscription: Stripe.Subscription,
  card: SavedCard,
  origin: EventOrigin,
): Stripe.Subscription {
  const previous: Partial<Stripe.Subscription> = {
    default_payment_method: subscription.default_payment_method,
  };
  subscription.default_payment_method = card.id;
  emitUpdated(emulator, account, subscription, previous, origin);
  return subscription;
}

export function updateMetadata(
  subscription: Stripe.Subscription,
  metadata: Stripe.Metadata,
): Partial<Stripe.Subscription> {
  const previous = { metadata: { ...subscription.metadata } };
  subscription.metadata = metadata;
  return previous;
}

export function emitUpdated(
  emulator: Emulator,
  account: Scope,
  subscription: Stripe.Subscription,
  previous: Partial<Stripe.Subscription>,
  origin: EventOrigin,
): void {
  emulator.store.put("subscriptions", account, subscription);
  emulator.events.emit(
    account,
    { type: "customer.subscription.updated", data: { object: subscription, previous_attributes: previous } },
    origin,
  );
}

function openInvoiceToRetry(emulator: Emulator, account: Scope, subscription: Stripe.Subscription) {
  if (subscription.status !== "past_due" || typeof subscription.latest_invoice !== "string") return undefined;
  const invoice = emulator.store.find("invoices", account, subscription.latest_invoice);
  return invoice?.status === "open" ? invoice : undefined;
}

/** Moves the subscription into its next period and invoices it. */
function advancePeriod(
  emulator: Emulator,
  account: Scope,
  subscription: Stripe.Subscription,
  customer: Stripe.Customer,
  origin: EventOrigin,
): Stripe.Invoice {
  const ended = subscriptionPeriod(subscription);
  const recurring = subscription.items.data[0]?.price.recurring;
  const nextEnd = addInterval(ended.end, recurring?.interval ?? "month", recurring?.interval_count ?? 1);
  setSubscriptionPeriod(subscription, ended.end, nextEnd);
  const invoice = openInvoice(emulator, account, customer, subscription, "subscription_cycle", ended, origin);
  subscription.latest_invoice = invoice.id;
  return invoice;
}

/** Drafts the subscription's invoice (`invoice.created`), then finalizes it (`invoice.finalized`). */
function openInvoice(
  emulator: Emulator,
  account: Scope,
  customer: Stripe.Customer,
  subscription: Stripe.Subscription,
  billingReason: "subscription_create" | "subscription_cycle",
  /** Stripe bills in advance: the invoice's own period is the one that ended, its lines cover the next. */
  invoicePeriod: { start: number; end: number },
  origin: EventOrigin,
): Stripe.Invoice {
  const { store, events } = emulator;
  const now = emulator.now();
  const productNames: Record<string, string> = {};
  for (const item of subscription.items.data) {
    const productId = typeof item.price.product === "string" ? item.price.product : item.price.product.id;
    const product = store.find("products", account, productId);
    if (product) productNames[productId] = product.name;
  }
  const invoice = buildInvoice(newId("in"), now, {
    customer,
    subscription,
    billingReason,
    periodStart: invoicePeriod.start,
    periodEnd: invoicePeriod.end,
    linePeriod: subscriptionPeriod(subscription),
    productNames,
  });
  store.put("invoices", account, invoice);
  events.emit(account, { type: "invoice.created", data: { object: invoice } }, origin);
  finalizeInvoice(invoice, customer, now);
  store.put("customers", account, customer);
  store.put("invoices", account, invoice);
  events.emit(account, { type: "invoice.finalized", data: { object: invoice } }, origin);
  return invoice;
}

/** Charges the invoice to the card, then marks it paid (`invoice.paid`, `invoice.payment_succeeded`). */
function payInvoice(
  emulator: Emulator,
  account: Scope,
  invoice: Stripe.Invoice,
  customer: Stripe.Customer,
  card: SavedCard,
  origin: EventOrigin,
): void {
  chargeCard(
    emulator,
    account,
    {
      amount: invoice.amount_due,
      currency: invoice.currency,
      customer: customer.id,
      email: customer.email,
      metadata: {},
      description:
        invoice.billing_reason === "subscription_create" ? "Subscription creation" : "Subscription update",
      card,
    },
    origin,
  );
  markInvoicePaid(invoice, emulator.now());
  emulator.store.put("invoices", account, invoice);
  emulator.events.emit(account, { type: "invoice.paid", data: { object: invoice } }, origin);
  emulator.events.emit(account, { type: "invoice.payment_succeeded", data: { object: invoice } }, origin);
}

/** The card renewals are charged to: the subscription's default payment method. */
function defaultCard(emulator: Emulator, subscription: Stripe.Subscription): SavedCard {
  const id = subscription.default_payment_method;
  const card = typeof id === "string" ? emulator.store.state.cards[id] : undefined;
  if (!card)
    throw invalidRequest(`The subscription ${subscription.id} has no default payment method to charge.`);
  return card;
}
