import type Stripe from "stripe";
import type { Emulator } from "../emulator.js";
import { invalidRequest } from "../errors.js";
import { newId } from "../ids.js";
import { buildInvoice, markInvoicePaid, markInvoicePaymentFailed } from "../objects/invoice.js";
import { buildSubscription, setSubscriptionPeriod, subscriptionPeriod } from "../objects/subscription.js";
import { addInterval } from "../periods.js";
import { snapshot } from "../state/snapshot.js";
import type { SavedCard, Scope } from "../state/types.js";
import { AUTOMATIC, type EventOrigin } from "../webhooks/events.js";

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

/** A subscription paid at once (Checkout): first invoice paid, `customer.subscription.created` and `invoice.paid`. */
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
  const invoice = createInvoice(
    emulator,
    input.account,
    input.customer,
    subscription,
    "subscription_create",
    {
      start: now,
      end: now,
    },
  );
  markInvoicePaid(invoice, now);
  subscription.latest_invoice = invoice.id;
  emulator.store.put("subscriptions", input.account, subscription);
  emulator.store.put("invoices", input.account, invoice);
  emulator.events.emit(
    input.account,
    { type: "customer.subscription.created", data: { object: subscription } },
    input.origin,
  );
  emulator.events.emit(input.account, { type: "invoice.paid", data: { object: invoice } }, input.origin);
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
  const invoice =
    openInvoiceToRetry(emulator, account, subscription) ?? advancePeriod(emulator, account, subscription);
  if (outcome === "paid") {
    markInvoicePaid(invoice, now);
    subscription.status = "active";
    emulator.store.changed();
    emulator.events.emit(account, { type: "invoice.paid", data: { object: invoice } }, origin);
    emitUpdated(emulator, account, subscription, previous, origin);
    return subscription;
  }
  markInvoicePaymentFailed(invoice, final ? null : now + RETRY_AFTER_SECONDS);
  emulator.store.changed();
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
  subscription.cancel_at = subscription.cancel_at ?? now;
  subscription.cancellation_details = {
    comment: subscription.cancellation_details?.comment ?? null,
    feedback: subscription.cancellation_details?.feedback ?? null,
    feedback_option: subscription.cancellation_details?.feedback_option ?? null,
    reason,
  };
  emulator.store.changed();
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
  emulator.store.changed();
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
): Stripe.Invoice {
  const ended = subscriptionPeriod(subscription);
  const recurring = subscription.items.data[0]?.price.recurring;
  const nextEnd = addInterval(ended.end, recurring?.interval ?? "month", recurring?.interval_count ?? 1);
  setSubscriptionPeriod(subscription, ended.end, nextEnd);
  const customer = emulator.store.get("customers", account, String(subscription.customer), "customer");
  const invoice = createInvoice(emulator, account, customer, subscription, "subscription_cycle", ended);
  subscription.latest_invoice = invoice.id;
  emulator.store.put("invoices", account, invoice);
  return invoice;
}

function createInvoice(
  emulator: Emulator,
  account: Scope,
  customer: Stripe.Customer,
  subscription: Stripe.Subscription,
  billingReason: "subscription_create" | "subscription_cycle",
  /** Stripe bills in advance: the invoice's own period is the one that ended, its lines cover the next. */
  invoicePeriod: { start: number; end: number },
): Stripe.Invoice {
  const now = emulator.now();
  const productNames: Record<string, string> = {};
  for (const item of subscription.items.data) {
    const productId = typeof item.price.product === "string" ? item.price.product : item.price.product.id;
    const product = emulator.store.find("products", account, productId);
    if (product) productNames[productId] = product.name;
  }
  return buildInvoice(newId("in"), now, {
    customer,
    subscription,
    billingReason,
    periodStart: invoicePeriod.start,
    periodEnd: invoicePeriod.end,
    linePeriod: subscriptionPeriod(subscription),
    productNames,
  });
}
