import type Stripe from "stripe";
import { newId } from "../ids.js";
import { embeddedList } from "../lists.js";

export interface InvoiceFields {
  customer: Stripe.Customer;
  subscription: Stripe.Subscription;
  billingReason: "subscription_create" | "subscription_cycle";
  periodStart: number;
  periodEnd: number;
  linePeriod: { start: number; end: number };
  productNames: Record<string, string>;
}

/**
 * A subscription invoice as a draft (`invoice.created`); `finalizeInvoice` numbers it and makes it
 * payable, then `markInvoicePaid` / `markInvoicePaymentFailed` record the attempt.
 */
export function buildInvoice(id: string, created: number, fields: InvoiceFields): Stripe.Invoice {
  const { customer, subscription } = fields;
  const lines = subscription.items.data.map((item) =>
    buildInvoiceLine(id, subscription, item, fields.linePeriod, fields.productNames),
  );
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  return {
    id,
    object: "invoice",
    account_country: "US",
    account_name: null,
    account_tax_ids: null,
    amount_due: total,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: total,
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
    discounts: [],
    due_date: null,
    effective_at: null,
    ending_balance: 0,
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
    starting_balance: 0,
    statement_descriptor: null,
    status: "draft",
    status_transitions: {
      finalized_at: null,
      marked_uncollectible_at: null,
      paid_at: null,
      voided_at: null,
    },
    subtotal: total,
    subtotal_excluding_tax: total,
    test_clock: null,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: created,
  };
}

/** Numbers the invoice from the customer's sequence and makes it payable (`invoice.finalized`). */
export function finalizeInvoice(invoice: Stripe.Invoice, customer: Stripe.Customer, now: number): void {
  const sequence = customer.next_invoice_sequence ?? 1;
  customer.next_invoice_sequence = sequence + 1;
  invoice.number = `${customer.invoice_prefix ?? "EMU"}-${String(sequence).padStart(4, "0")}`;
  invoice.status = "open";
  invoice.effective_at = now;
  invoice.status_transitions.finalized_at = now;
}

export function markInvoicePaid(invoice: Stripe.Invoice, now: number): void {
  invoice.status = "paid";
  invoice.auto_advance = false;
  invoice.attempted = true;
  invoice.attempt_count += 1;
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
  item: Stripe.SubscriptionItem,
  period: { start: number; end: number },
  productNames: Record<string, string>,
): Stripe.InvoiceLineItem {
  const quantity = item.quantity ?? 1;
  const amount = (item.price.unit_amount ?? 0) * quantity;
  const product = typeof item.price.product === "string" ? item.price.product : item.price.product.id;
  return {
    id: newId("il"),
    object: "line_item",
    amount,
    currency: item.price.currency,
    description: `${quantity} × ${productNames[product] ?? product}`,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice,
    livemode: false,
    metadata: { ...subscription.metadata },
    parent: {
      type: "subscription_item_details",
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: false,
        proration_details: { credited_items: null },
        subscription: subscription.id,
        subscription_item: item.id,
      },
    },
    period,
    pretax_credit_amounts: [],
    pricing: {
      type: "price_details",
      price_details: { price: item.price.id, product },
      unit_amount_decimal: item.price.unit_amount_decimal,
    },
    quantity,
    quantity_decimal: null,
    subscription: subscription.id,
    subtotal: amount,
    taxes: [],
  };
}
