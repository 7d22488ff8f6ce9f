import type Stripe from "stripe";
import type { Emulator } from "../emulator.js";
import type { InvoiceLineInput } from "../objects/invoice.js";
import { customerTaxIds } from "../resources/customers.js";
import { snapshot } from "../state/snapshot.js";
import type { CheckoutSessionDetails, Scope } from "../state/types.js";
import { type Buyer, calculateTax, normalizePlace } from "../tax/calculate.js";
import { lineBehavior, taxRateFor } from "./checkout-tax.js";
import { activeCoverage, taxSettingsOf } from "./tax.js";

// Stripe Tax on subscription invoices: each line's `taxes`, the invoice's `total_taxes` and totals,
// computed by the same calculation as Checkout from the customer's address, exemption and tax ids.

/** A subscription's `automatic_tax` when Checkout started it with `automatic_tax[enabled]=true`. */
export function subscriptionAutomaticTax(
  liability: Stripe.Subscription.AutomaticTax.Liability | null,
): Stripe.Subscription.AutomaticTax {
  return { disabled_reason: null, enabled: true, liability: liability ?? { type: "self" } };
}

function customerExempt(customer: Stripe.Customer): "none" | "exempt" | "reverse" {
  const value = customer.tax_exempt;
  return value === "exempt" ? "exempt" : value === "reverse" ? "reverse" : "none";
}

/** Negates without making `-0`. */
const signed = (value: number, negative: boolean) => (negative && value !== 0 ? -value : value);

/**
 * Taxes a draft subscription invoice of a subscription with automatic tax. Exclusive tax is added to
 * `total` (and so to `amount_due`); inclusive tax is inside the line amounts. A customer without an
 * address leaves `automatic_tax.status: "requires_location_inputs"` and no tax.
 */
export function applyInvoiceTax(
  emulator: Emulator,
  account: Scope,
  invoice: Stripe.Invoice,
  customer: Stripe.Customer,
  subscription: Stripe.Subscription,
  lineInputs: readonly InvoiceLineInput[],
): void {
  const taxExempt = customerExempt(customer);
  const taxIds = customerTaxIds(emulator, account, customer.id).map((taxId) => ({
    type: taxId.type,
    value: taxId.value,
  }));
  invoice.automatic_tax = {
    disabled_reason: null,
    enabled: true,
    liability: snapshot(subscription.automatic_tax.liability ?? { type: "self" }),
    provider: "stripe",
    status: "requires_location_inputs",
  };
  invoice.customer_address = customer.address ? snapshot(customer.address) : null;
  invoice.customer_tax_exempt = taxExempt;
  invoice.customer_tax_ids = taxIds;
  const address = customer.address;
  if (!address?.country) return;
  const buyer: Buyer = {
    place: normalizePlace(address.country, address.state),
    taxExempt,
    euVatId: taxIds.some((taxId) => taxId.type === "eu_vat"),
  };
  const settings = taxSettingsOf(emulator, account);
  const prices = new Map(lineInputs.map((line) => [line.id, line.price]));
  const lines = invoice.lines.data;
  const inputs = lines.map((line) => {
    const discounts = (line.discount_amounts ?? []).reduce((sum, entry) => sum + entry.amount, 0);
    const net = line.amount - discounts;
    const behavior =
      lineBehavior(prices.get(line.id)?.tax_behavior, settings, invoice.currency) ?? "exclusive";
    return { amount: Math.abs(net), behavior, negative: net < 0 };
  });
  const taxes = calculateTax(inputs, buyer, activeCoverage(emulator, account));
  let exclusive = 0;
  let inclusive = 0;
  const totals = new Map<string, Stripe.Invoice.TotalTax>();
  lines.forEach((line, index) => {
    const tax = taxes[index];
    const input = inputs[index];
    if (!tax || !input) return;
    const rate = taxRateFor(emulator, account, tax);
    const amount = signed(tax.amount, input.negative);
    const taxable = signed(tax.taxableAmount, input.negative);
    line.taxes = [
      {
        amount,
        tax_behavior: input.behavior,
        tax_rate_details: { tax_rate: rate.id },
        taxability_reason: tax.reason,
        taxable_amount: taxable,
        type: "tax_rate_details",
      },
    ];
    if (tax.inclusive) inclusive += amount;
    else exclusive += amount;
    const key = `${rate.id} ${tax.reason}`;
    const total = totals.get(key);
    if (total) {
      total.amount += amount;
      total.taxable_amount = (total.taxable_amount ?? 0) + taxable;
    } else {
      totals.set(key, {
        amount,
        tax_behavior: input.behavior,
        tax_rate_details: { tax_rate: rate.id },
        taxability_reason: tax.reason,
        taxable_amount: taxable,
        type: "tax_rate_details",
      });
    }
  });
  invoice.total_taxes = [...totals.values()];
  // Stripe: `subtotal` is before invoice discounts and exclusive tax (inclusive tax stays inside it);
  // `*_excluding_tax` leave out all tax; `total` is after discounts, plus exclusive tax.
  const pretax = invoice.total;
  invoice.subtotal_excluding_tax = invoice.subtotal - inclusive;
  invoice.total_excluding_tax = pretax - inclusive;
  invoice.total = pretax + exclusive;
  invoice.amount_due = Math.max(0, invoice.total);
  invoice.amount_remaining = invoice.amount_due;
  invoice.automatic_tax.status = "complete";
}

/**
 * A subscription-mode session shows the tax of the subscription's first invoice: `amount_total`,
 * `total_details.amount_tax`, the breakdown and each line item's `amount_tax`/`amount_total`/`taxes`.
 */
export function applySessionTaxFromInvoice(
  emulator: Emulator,
  account: Scope,
  session: Stripe.Checkout.Session,
  details: CheckoutSessionDetails,
  subscription: Stripe.Subscription,
  invoice: Stripe.Invoice,
): void {
  const record = details.tax ?? { breakdown: { discounts: [], taxes: [] }, lineTaxes: {} };
  record.lineTaxes = {};
  const byRate = new Map<string, Stripe.Checkout.Session.TotalDetails.Breakdown.Tax>();
  let exclusive = 0;
  let all = 0;
  details.lineItems.forEach((item, index) => {
    const subscriptionItem = subscription.items.data[index]?.id;
    const line = invoice.lines.data.find(
      (entry) =>
        entry.parent?.subscription_item_details?.subscription_item === subscriptionItem &&
        !entry.parent?.subscription_item_details?.proration,
    );
    const tax = line?.taxes?.[0];
    const rateId = tax?.tax_rate_details?.tax_rate;
    const rate = rateId ? emulator.store.find("taxRates", account, rateId) : undefined;
    if (!tax || !rate) return;
    const isInclusive = tax.tax_behavior === "inclusive";
    all += tax.amount;
    if (!isInclusive) exclusive += tax.amount;
    item.amount_tax = tax.amount;
    item.amount_total = item.amount_subtotal - item.amount_discount + (isInclusive ? 0 : tax.amount);
    const entry: Stripe.LineItem.Tax = {
      amount: tax.amount,
      rate: snapshot(rate),
      taxability_reason: tax.taxability_reason,
      taxable_amount: tax.taxable_amount,
    };
    record.lineTaxes[item.id] = [entry];
    const sum = byRate.get(rate.id);
    if (sum) {
      sum.amount += tax.amount;
      sum.taxable_amount = (sum.taxable_amount ?? 0) + (tax.taxable_amount ?? 0);
    } else {
      byRate.set(rate.id, snapshot(entry));
    }
  });
  record.breakdown.taxes = [...byRate.values()];
  details.tax = record;
  session.amount_total = (session.amount_total ?? 0) + exclusive;
  session.total_details = {
    amount_discount: session.total_details?.amount_discount ?? 0,
    amount_shipping: 0,
    amount_tax: all,
  };
  session.automatic_tax.status = "complete";
  emulator.store.set("checkoutDetails", session.id, details);
}
