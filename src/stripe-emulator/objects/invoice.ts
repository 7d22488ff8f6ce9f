import type Stripe from "stripe";
import { embeddedList } from "../lists.js";
import { couponAmount } from "./coupon.js";

/** One line of a subscription invoice: a period of an item, a trial, or a proration. */
export interface InvoiceLineInput {
  id: string;
  amount: number;
  description: string;
  period: { start: number; end: number };
  price: Stripe.Price;
  quantity: number;
  subscriptionItem: string;
  proration: boolean;
  /** The pending invoice item (`ii_…`) a proration line comes from. */
  invoiceItem: string | null;
  creditedItems: { invoice: string; invoice_line_items: string[] } | null;
}

/** A discount (`di_…`) on the subscription and the coupon it was made from. */
export interface AppliedDiscount {
  discount: string;
  coupon: Stripe.Coupon;
}

export interface InvoiceFields {
  customer: Stripe.Customer;
  subscription: Stripe.Subscription;
  billingReason: "subscription_create" | "subscription_cycle" | "subscription_update" | "upcoming";
  periodStart: number;
  periodEnd: number;
  lines: InvoiceLineInput[];
  discounts: AppliedDiscount[];
}

/**
 * A subscription invoice as a draft (`invoice.created`); `finalizeInvoice` numbers it, applies the
 * customer's balance and makes it payable, then `markInvoicePaid` / `markInvoicePaymentFailed` record
 * the attempt. Invoice-level discounts apply to the discountable lines (not prorations) and are spread
 * over them in `discount_amounts`.
 */
export function buildInvoice(id: string, created: number, fields: InvoiceFields): Stripe.Invoice {
  const { customer, subscription } = fields;
  const lines = fields.lines.map((line) => buildInvoiceLine(id, subscription, line));
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  const totalDiscounts = applyDiscounts(lines, fields.discounts);
  const discounted = totalDiscounts.reduce((sum, entry) => sum + entry.amount, 0);
  const total = subtotal - discounted;
  const due = Math.max(0, total);
  return {
    id,
    object: "invoice",
    account_country: "US",
    account_name: null,
    account_tax_ids: null,
    amount_due: due,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: due,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: fields.billingReason,
    collection_method: "charge_automatically",
    created,
    currency: subscription.currency,
    custom_fields: null,
    customer: customer.id,
    customer_account: null,
    customer_address: null,
    customer_email: customer.email,
    customer_name: customer.name ?? null,
    customer_phone: customer.phone ?? null,
    customer_shipping: null,
    customer_tax_exempt: "none",
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: fields.discounts.map((entry) => entry.discount),
    due_date: null,
    effective_at: null,
    ending_balance: null,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: "self" },
    last_finalization_error: null,
    latest_revision: null,
    lines: embeddedList(lines, `/v1/invoices/${id}/lines`),
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: null,
    on_behalf_of: null,
    parent: {
      type: "subscription_details",
      quote_details: null,
      subscription_details: { metadata: { ...subscription.metadata }, subscription: subscription.id },
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: fields.periodEnd,
    period_start: fields.periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: customer.balance ?? 0,
    statement_descriptor: null,
    status: "draft",
    status_transitions: {
      finalized_at: null,
      marked_uncollectible_at: null,
      paid_at: null,
      voided_at: null,
    },
    subtotal,
    subtotal_excluding_tax: subtotal,
    test_clock: null,
    total,
    total_discount_amounts: totalDiscounts,
    total_excluding_tax: total,
    total_pretax_credit_amounts: fields.discounts.length
      ? totalDiscounts.map((entry) => ({ amount: entry.amount, discount: entry.discount, type: "discount" }))
      : [],
    total_taxes: [],
    webhooks_delivered_at: created,
  };
}

/** Takes each discount off the discountable lines, in order; answers the invoice's totals per discount. */
function applyDiscounts(
  lines: Stripe.InvoiceLineItem[],
  discounts: AppliedDiscount[],
): Stripe.Invoice.TotalDiscountAmount[] {
  const discountable = lines.filter((line) => line.discountable && line.amount > 0);
  const remaining = new Map(discountable.map((line) => [line.id, line.amount]));
  return discounts.map(({ discount, coupon }) => {
    const base = [...remaining.values()].reduce((sum, amount) => sum + amount, 0);
    const amount = couponAmount(coupon, base);
    let left = amount;
    discountable.forEach((line, index) => {
      const before = remaining.get(line.id) ?? 0;
      const share =
        index === discountable.length - 1 ? left : Math.min(left, Math.round((amount * before) / base));
      left -= share;
      remaining.set(line.id, before - share);
      line.discount_amounts = [...(line.discount_amounts ?? []), { amount: share, discount }];
      line.pretax_credit_amounts = [
        ...(line.pretax_credit_amounts ?? []),
        { amount: share, discount, type: "discount" },
      ];
    });
    return { amount, discount };
  });
}

/**
 * Numbers the invoice from the customer's sequence, applies the customer's balance (credit pays part or
 * all of it; a negative total becomes credit) and makes it payable at its hosted page.
 */
export function finalizeInvoice(
  invoice: Stripe.Invoice,
  customer: Stripe.Customer,
  now: number,
  hostedUrl: string,
): void {
  const sequence = customer.next_invoice_sequence ?? 1;
  customer.next_invoice_sequence = sequence + 1;
  invoice.number = `${customer.invoice_prefix ?? "EMU"}-${String(sequence).padStart(4, "0")}`;
  invoice.status = "open";
  invoice.effective_at = now;
  invoice.status_transitions.finalized_at = now;
  invoice.hosted_invoice_url = hostedUrl;
  const balance = customer.balance ?? 0;
  const after = invoice.total + balance;
  invoice.starting_balance = balance;
  invoice.amount_due = Math.max(0, after);
  invoice.amount_remaining = invoice.amount_due;
  invoice.ending_balance = Math.min(0, after);
  customer.balance = invoice.ending_balance;
}

export function markInvoicePaid(invoice: Stripe.Invoice, now: number): void {
  invoice.status = "paid";
  invoice.auto_advance = false;
  if (invoice.amount_due > 0) {
    invoice.attempted = true;
    invoice.attempt_count += 1;
  }
  invoice.amount_paid = invoice.amount_due;
  invoice.amount_remaining = 0;
  invoice.next_payment_attempt = null;
  invoice.status_transitions.paid_at = now;
}

/** A failed charge leaves the invoice open; Stripe retries it unless this was the last attempt. */
export function markInvoicePaymentFailed(invoice: Stripe.Invoice, nextAttempt: number | null): void {
  invoice.attempted = true;
  invoice.attempt_count += 1;
  invoice.next_payment_attempt = nextAttempt;
}

function buildInvoiceLine(
  invoice: string,
  subscription: Stripe.Subscription,
  line: InvoiceLineInput,
): Stripe.InvoiceLineItem {
  const product = typeof line.price.product === "string" ? line.price.product : line.price.product.id;
  return {
    id: line.id,
    object: "line_item",
    amount: line.amount,
    currency: line.price.currency,
    description: line.description,
    discount_amounts: [],
    // Stripe does not discount prorations or negative lines unless told to.
    discountable: !line.proration && line.amount >= 0,
    discounts: [],
    invoice,
    livemode: false,
    metadata: { ...subscription.metadata },
    parent: {
      type: "subscription_item_details",
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: line.invoiceItem,
        proration: line.proration,
        proration_details: { credited_items: line.creditedItems },
        subscription: subscription.id,
        subscription_item: line.subscriptionItem,
      },
    },
    period: line.period,
    pretax_credit_amounts: [],
    pricing: {
      type: "price_details",
      price_details: { price: line.price.id, product },
      unit_amount_decimal: line.price.unit_amount_decimal,
    },
    quantity: line.quantity,
    quantity_decimal: null,
    subscription: subscription.id,
    subtotal: line.amount,
    taxes: [],
  };
}

/** A full period of each item, billed in advance. */
export function periodLines(
  subscription: Stripe.Subscription,
  period: { start: number; end: number },
  productNames: Record<string, string>,
  newLineId: () => string,
): InvoiceLineInput[] {
  return subscription.items.data.map((item) => {
    const quantity = item.quantity ?? 1;
    const product = productOf(item.price);
    return {
      id: newLineId(),
      amount: (item.price.unit_amount ?? 0) * quantity,
      description: `${quantity} × ${productNames[product] ?? product}`,
      period,
      price: item.price,
      quantity,
      subscriptionItem: item.id,
      proration: false,
      invoiceItem: null,
      creditedItems: null,
    };
  });
}

/** The $0 lines of a trial: "Trial period for …". */
export function trialLines(
  subscription: Stripe.Subscription,
  period: { start: number; end: number },
  productNames: Record<string, string>,
  newLineId: () => string,
): InvoiceLineInput[] {
  return periodLines(subscription, period, productNames, newLineId).map((line) => ({
    ...line,
    amount: 0,
    description: `Trial period for ${productNames[productOf(line.price)] ?? productOf(line.price)}`,
  }));
}

export function productOf(price: Stripe.Price): string {
  return typeof price.product === "string" ? price.product : price.product.id;
}
