import type Stripe from "stripe";
import type { Emulator } from "../emulator.js";
import { newId } from "../ids.js";
import {
  type AppliedDiscount,
  buildInvoice,
  finalizeInvoice,
  type InvoiceFields,
  type InvoiceLineInput,
  markInvoicePaid,
  markInvoicePaymentFailed,
  productOf,
} from "../objects/invoice.js";
import { lineFromInvoiceItem } from "../objects/invoice-item.js";
import { buildInvoicePayment } from "../objects/invoice-payment.js";
import type { SavedCard, Scope } from "../state/types.js";
import type { EventOrigin } from "../webhooks/events.js";
import { subscriptionPresentment } from "./adaptive-pricing.js";
import { applyInvoiceTax } from "./invoice-tax.js";
import { chargeCard } from "./payments.js";

/** Product names by id, for line descriptions ("1 × Membership"). */
export function productNames(
  emulator: Emulator,
  account: Scope,
  prices: Stripe.Price[],
): Record<string, string> {
  const names: Record<string, string> = {};
  for (const price of prices) {
    const id = productOf(price);
    const product = emulator.store.find("products", account, id);
    if (product) names[id] = product.name;
  }
  return names;
}

export function subscriptionProductNames(
  emulator: Emulator,
  account: Scope,
  subscription: Stripe.Subscription,
): Record<string, string> {
  return productNames(
    emulator,
    account,
    subscription.items.data.map((item) => item.price),
  );
}

export const newLineId = () => newId("il");

/**
 * The subscription's discounts that apply at `now`, with their coupons. A `repeating` discount past its
 * `end` is removed from the subscription, as Stripe ends it.
 */
export function activeDiscounts(
  emulator: Emulator,
  account: Scope,
  subscription: Stripe.Subscription,
  now: number,
): AppliedDiscount[] {
  const applied: AppliedDiscount[] = [];
  const kept: string[] = [];
  for (const entry of subscription.discounts) {
    const id = typeof entry === "string" ? entry : entry.id;
    const discount = emulator.store.find("discounts", account, id);
    const coupon = emulator.store.state.redeemedCoupons[id];
    if (!discount || !coupon) continue;
    if (discount.end !== null && discount.end <= now) continue;
    kept.push(id);
    applied.push({ discount: id, coupon });
  }
  if (kept.length !== subscription.discounts.length) subscription.discounts = kept;
  return applied;
}

/** Pending invoice items (prorations) of the subscription, as invoice lines. */
export function pendingLines(
  emulator: Emulator,
  account: Scope,
  subscription: Stripe.Subscription,
): { items: Stripe.InvoiceItem[]; lines: InvoiceLineInput[] } {
  const items = emulator.store
    .list("invoiceItems", account)
    .filter(
      (item) => item.invoice === null && item.parent?.subscription_details?.subscription === subscription.id,
    )
    .reverse();
  const lines = items.map((item) => {
    const priceId = item.pricing?.price_details?.price;
    const id = typeof priceId === "string" ? priceId : (priceId?.id ?? "");
    const price =
      emulator.store.find("prices", account, id) ??
      subscription.items.data.find((entry) => entry.price.id === id)?.price;
    if (!price) throw new Error(`stripe-emulator: the price ${id} of ${item.id} is gone`);
    return lineFromInvoiceItem(item, newLineId(), price);
  });
  return { items, lines };
}

export interface NewSubscriptionInvoice {
  customer: Stripe.Customer;
  subscription: Stripe.Subscription;
  billingReason: InvoiceFields["billingReason"];
  /** Stripe bills in advance: the invoice's own period is the one that ended, its lines the next. */
  period: { start: number; end: number };
  lines: InvoiceLineInput[];
  /** When the invoice is due, for which discounts still apply (a renewal the clock caught up on). */
  at?: number;
}

/**
 * Drafts the subscription's invoice (`invoice.created`) with its pending invoice items and discounts,
 * then finalizes it (`invoice.finalized`). A `once` discount is used up by the first invoice it takes
 * something off.
 */
export function openSubscriptionInvoice(
  emulator: Emulator,
  account: Scope,
  input: NewSubscriptionInvoice,
  origin: EventOrigin,
): Stripe.Invoice {
  const { store, events } = emulator;
  const now = emulator.now();
  const { customer, subscription } = input;
  const id = newId("in");
  const pending = pendingLines(emulator, account, subscription);
  const discounts = activeDiscounts(emulator, account, subscription, Math.min(input.at ?? now, now));
  const invoice = buildInvoice(id, now, {
    customer,
    subscription,
    billingReason: input.billingReason,
    periodStart: input.period.start,
    periodEnd: input.period.end,
    lines: [...pending.lines, ...input.lines],
    discounts,
  });
  if (subscription.automatic_tax.enabled) {
    applyInvoiceTax(emulator, account, invoice, customer, subscription, [...pending.lines, ...input.lines]);
  }
  for (const item of pending.items) {
    item.invoice = id;
    store.put("invoiceItems", account, item);
  }
  for (const entry of invoice.total_discount_amounts ?? []) {
    const coupon = discounts.find((applied) => applied.discount === entry.discount)?.coupon;
    if (coupon?.duration === "once" && entry.amount > 0) {
      subscription.discounts = subscription.discounts.filter((discount) => discount !== entry.discount);
    }
  }
  subscription.latest_invoice = id;
  store.put("subscriptions", account, subscription);
  store.put("invoices", account, invoice);
  events.emit(account, { type: "invoice.created", data: { object: invoice } }, origin);
  finalizeInvoice(invoice, customer, now, `${emulator.publicUrl}/invoice/${id}`);
  store.put("customers", account, customer);
  store.put("invoices", account, invoice);
  events.emit(account, { type: "invoice.finalized", data: { object: invoice } }, origin);
  return invoice;
}

/**
 * Charges what the invoice asks to the card (nothing when credit or a trial covers it), then marks it
 * paid: the payment's events (see `chargeCard`), `invoice.paid`, `invoice.payment_succeeded`. The
 * invoice of a subscription paid with Adaptive Pricing is charged in the customer's chosen currency at
 * today's rate (adaptive-pricing.ts); the invoice and its payment stay in the subscription's currency.
 */
export function payInvoice(
  emulator: Emulator,
  account: Scope,
  invoice: Stripe.Invoice,
  customer: Stripe.Customer,
  card: SavedCard,
  origin: EventOrigin,
): void {
  if (invoice.amount_remaining > 0) {
    const subscriptionId = invoice.parent?.subscription_details?.subscription;
    const subscription =
      typeof subscriptionId === "string"
        ? emulator.store.find("subscriptions", account, subscriptionId)
        : undefined;
    const { paymentIntent } = chargeCard(
      emulator,
      account,
      {
        amount: invoice.amount_remaining,
        currency: invoice.currency,
        customer: customer.id,
        email: customer.email,
        metadata: {},
        description:
          invoice.billing_reason === "subscription_create" ? "Subscription creation" : "Subscription update",
        card,
      },
      origin,
      subscriptionPresentment(subscription, invoice.amount_remaining, invoice.currency),
    );
    const payment = buildInvoicePayment(newId("inpay"), emulator.now(), invoice, paymentIntent.id);
    emulator.store.put("invoicePayments", account, payment);
  }
  markInvoicePaid(invoice, emulator.now());
  emulator.store.put("invoices", account, invoice);
  emulator.events.emit(account, { type: "invoice.paid", data: { object: invoice } }, origin);
  emulator.events.emit(account, { type: "invoice.payment_succeeded", data: { object: invoice } }, origin);
}

/** A declined automatic charge: the invoice stays open (`invoice.payment_failed`). */
export function failInvoicePayment(
  emulator: Emulator,
  account: Scope,
  invoice: Stripe.Invoice,
  nextAttempt: number | null,
  origin: EventOrigin,
): void {
  markInvoicePaymentFailed(invoice, nextAttempt);
  emulator.store.put("invoices", account, invoice);
  emulator.events.emit(account, { type: "invoice.payment_failed", data: { object: invoice } }, origin);
}

/** The payments of an invoice, newest first, as `expand[]=payments` and `/v1/invoice_payments` list them. */
export function invoicePayments(
  emulator: Emulator,
  account: Scope,
  invoice: string,
): Stripe.InvoicePayment[] {
  return emulator.store.list("invoicePayments", account).filter((payment) => payment.invoice === invoice);
}
