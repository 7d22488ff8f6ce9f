import type Stripe from "stripe";
import type { Emulator } from "../emulator.js";
import { invalidRequest } from "../errors.js";
import { newId } from "../ids.js";
import { buildDiscount } from "../objects/coupon.js";
import { periodLines, trialLines } from "../objects/invoice.js";
import { buildSubscription, setSubscriptionPeriod, subscriptionPeriod } from "../objects/subscription.js";
import { addInterval } from "../periods.js";
import { snapshot } from "../state/snapshot.js";
import type { SavedCard, Scope } from "../state/types.js";
import { AUTOMATIC, type EventOrigin } from "../webhooks/events.js";
import { subscriptionAutomaticTax } from "./invoice-tax.js";
import {
  failInvoicePayment,
  newLineId,
  openSubscriptionInvoice,
  payInvoice,
  subscriptionProductNames,
} from "./invoices.js";
import { saveSubscriptionRecord } from "./subscription-records.js";

/** Stripe's retries spread attempts over days; the next one is announced on the invoice. */
export const RETRY_AFTER_SECONDS = 3 * 86_400;

export interface NewSubscription {
  account: Scope;
  customer: Stripe.Customer;
  items: { price: Stripe.Price; quantity: number }[];
  metadata: Stripe.Metadata;
  description: string | null;
  card: SavedCard;
  /** The end of a free trial, if any. */
  trialEnd: number | null;
  /** A coupon redeemed into the subscription's discount (Checkout's `discounts[0][coupon]`). */
  coupon: Stripe.Coupon | null;
  checkoutSession: string | null;
  /** Stripe Tax: the liability of the session's `automatic_tax`, or `null` when it is off. */
  automaticTax: Stripe.Subscription.AutomaticTax.Liability | null;
  /**
   * Adaptive Pricing: the currency the customer chose on Checkout, in which every invoice is charged
   * (`presentment_details.presentment_currency`), or `null` when they pay in the subscription's.
   */
  presentmentCurrency: string | null;
  origin: EventOrigin;
}

/** Makes the discount (`di_…`) a coupon becomes on a subscription; `repeating` ones end after N months. */
export function redeemIntoDiscount(
  emulator: Emulator,
  account: Scope,
  coupon: Stripe.Coupon,
  owner: { customer: string | null; subscription: string | null; checkoutSession: string | null },
): Stripe.Discount {
  const now = emulator.now();
  const discount = buildDiscount(newId("di"), {
    coupon,
    ...owner,
    invoice: null,
    start: now,
    end:
      coupon.duration === "repeating" && coupon.duration_in_months
        ? addInterval(now, "month", coupon.duration_in_months)
        : null,
  });
  emulator.store.put("discounts", account, discount);
  emulator.store.set("redeemedCoupons", discount.id, snapshot(coupon));
  return discount;
}

/**
 * A subscription started by Checkout, with Stripe's events in Stripe's order: `invoice.created`,
 * `invoice.finalized`, `customer.subscription.created`, the payment's (see `chargeCard`; none for a
 * trial's $0 invoice), `invoice.paid` and `invoice.payment_succeeded`.
 */
export function startSubscription(emulator: Emulator, input: NewSubscription) {
  const now = emulator.now();
  const firstPrice = input.items[0]?.price;
  if (!firstPrice?.recurring) throw invalidRequest("A subscription needs at least one recurring price.");
  const trialEnd = input.trialEnd;
  const periodEnd =
    trialEnd ?? addInterval(now, firstPrice.recurring.interval, firstPrice.recurring.interval_count);
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
  if (input.automaticTax) subscription.automatic_tax = subscriptionAutomaticTax(input.automaticTax);
  if (input.presentmentCurrency) {
    subscription.presentment_details = { presentment_currency: input.presentmentCurrency };
  }
  if (trialEnd !== null) {
    subscription.status = "trialing";
    subscription.trial_start = now;
    subscription.trial_end = trialEnd;
    subscription.billing_cycle_anchor = trialEnd;
  }
  if (input.coupon) {
    const discount = redeemIntoDiscount(emulator, input.account, input.coupon, {
      customer: input.customer.id,
      subscription: subscription.id,
      checkoutSession: input.checkoutSession,
    });
    subscription.discounts = [discount.id];
  }
  const names = subscriptionProductNames(emulator, input.account, subscription);
  const period = { start: now, end: periodEnd };
  const invoice = openSubscriptionInvoice(
    emulator,
    input.account,
    {
      customer: input.customer,
      subscription,
      billingReason: "subscription_create",
      period: { start: now, end: now },
      lines:
        trialEnd !== null
          ? trialLines(subscription, period, names, newLineId)
          : periodLines(subscription, period, names, newLineId),
    },
    input.origin,
  );
  saveSubscriptionRecord(emulator, subscription.id, { nextRenewal: "paid", trialWillEndSentFor: null });
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
 * What Stripe does at the end of a period (or of a trial): bill the next one. A past-due subscription
 * retries its open invoice instead. `final` makes a failure the last retry, which cancels the
 * subscription. Events: `invoice.created` and `invoice.finalized` (a new period only), then the
 * payment's and `invoice.paid` + `invoice.payment_succeeded`, or `invoice.payment_failed`; last
 * `customer.subscription.updated` (or `.deleted`).
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
  if (outcome === "paid" || invoice.amount_remaining === 0) {
    payInvoice(emulator, account, invoice, customer, defaultCard(emulator, subscription), origin);
    subscription.status = "active";
    emitUpdated(emulator, account, subscription, previous, origin);
    return subscription;
  }
  failInvoicePayment(emulator, account, invoice, final ? null : now + RETRY_AFTER_SECONDS, origin);
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

export function openInvoiceToRetry(emulator: Emulator, account: Scope, subscription: Stripe.Subscription) {
  if (subscription.status !== "past_due" || typeof subscription.latest_invoice !== "string") return undefined;
  const invoice = emulator.store.find("invoices", account, subscription.latest_invoice);
  return invoice?.status === "open" ? invoice : undefined;
}

/** Moves the subscription into its next period (a trial into its first paid one) and invoices it. */
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
  const names = subscriptionProductNames(emulator, account, subscription);
  return openSubscriptionInvoice(
    emulator,
    account,
    {
      customer,
      subscription,
      billingReason: "subscription_cycle",
      period: ended,
      at: ended.end,
      lines: periodLines(subscription, { start: ended.end, end: nextEnd }, names, newLineId),
    },
    origin,
  );
}

/** The card renewals are charged to: the subscription's default payment method. */
export function defaultCard(emulator: Emulator, subscription: Stripe.Subscription): SavedCard {
  const id = subscription.default_payment_method;
  const card = typeof id === "string" ? emulator.store.state.cards[id] : undefined;
  if (!card)
    throw invalidRequest(`The subscription ${subscription.id} has no default payment method to charge.`);
  return card;
}
