import type Stripe from "stripe";
import type { Emulator } from "../emulator.js";
import { invalidRequest } from "../errors.js";
import { newId } from "../ids.js";
import { buildDiscount } from "../objects/coupon.js";
import { buildTaxRate } from "../objects/tax.js";
import { snapshot } from "../state/snapshot.js";
import type { CheckoutSessionDetails, CheckoutTaxRecord, Scope } from "../state/types.js";
import {
  type Buyer,
  calculateTax,
  type LineTax,
  normalizePlace,
  type Place,
  taxTotals,
} from "../tax/calculate.js";
import { activeCoverage, taxSettingsOf } from "./tax.js";

// Stripe Tax in Checkout: which behaviour each line has, the tax of each line for the buyer's place,
// the session's totals and `total_details.breakdown`, and each line item's `taxes`.

/** `exclusive` or `inclusive` for a line: its price's, else the account's default. */
export function lineBehavior(
  own: string | null | undefined,
  settings: Stripe.Tax.Settings,
  currency: string,
): "inclusive" | "exclusive" | null {
  if (own === "inclusive") return "inclusive";
  if (own === "exclusive") return "exclusive";
  const fallback = settings.defaults.tax_behavior;
  if (fallback === "inclusive") return "inclusive";
  if (fallback === "exclusive") return "exclusive";
  // Stripe infers from the currency: prices in USD and CAD exclude tax, others include it.
  if (fallback === "inferred_by_currency")
    return ["usd", "cad"].includes(currency) ? "exclusive" : "inclusive";
  return null;
}

/** Refuses a session whose lines have no tax behaviour (no price `tax_behavior`, no default). */
export function checkTaxBehaviors(
  emulator: Emulator,
  account: Scope,
  lineItems: { taxBehavior: string | null | undefined; param: string }[],
  currency: string,
): void {
  const settings = taxSettingsOf(emulator, account);
  for (const item of lineItems) {
    if (!lineBehavior(item.taxBehavior, settings, currency)) {
      throw invalidRequest(
        "Automatic tax needs a tax behavior for every price: set `tax_behavior` (`inclusive` or `exclusive`) on the price, or a default tax behavior in the tax settings (`defaults[tax_behavior]`).",
        `${item.param}[price_data][tax_behavior]`,
      );
    }
  }
}

/** The breakdown before any tax: the session's discount, if any. */
export function initialTaxRecord(
  session: Stripe.Checkout.Session,
  coupon: Stripe.Coupon | undefined,
  now: number,
): CheckoutTaxRecord {
  const discount = session.total_details?.amount_discount ?? 0;
  const discounts = coupon
    ? [
        {
          amount: discount,
          discount: buildDiscount(newId("di"), {
            coupon,
            customer: typeof session.customer === "string" ? session.customer : null,
            subscription: null,
            checkoutSession: session.id,
            invoice: null,
            start: now,
            end: null,
          }),
        },
      ]
    : [];
  return { breakdown: { discounts, taxes: [] }, lineTaxes: {} };
}

export interface TaxBuyer {
  address: Stripe.Address;
  /** An EU VAT number typed on the page (or on the customer). */
  euVatId: boolean;
  taxExempt: "none" | "exempt" | "reverse";
}

/**
 * Computes Stripe Tax for the buyer's address and writes it into the session (amounts, totals,
 * `automatic_tax.status: "complete"`) and its details (line item `amount_tax`/`amount_total`, breakdown).
 */
export function applyCheckoutTax(
  emulator: Emulator,
  account: Scope,
  session: Stripe.Checkout.Session,
  details: CheckoutSessionDetails,
  buyer: TaxBuyer,
): void {
  const place = normalizePlace(buyer.address.country ?? "", buyer.address.state);
  const settings = taxSettingsOf(emulator, account);
  const currency = session.currency ?? "usd";
  const taxBuyer: Buyer = { place, taxExempt: buyer.taxExempt, euVatId: buyer.euVatId };
  const lines = details.lineItems.map((item) => ({
    amount: item.amount_subtotal - item.amount_discount,
    behavior: lineBehavior(item.price?.tax_behavior, settings, currency) ?? "exclusive",
  }));
  const taxes = calculateTax(lines, taxBuyer, activeCoverage(emulator, account));
  const record = details.tax ?? { breakdown: { discounts: [], taxes: [] }, lineTaxes: {} };
  record.lineTaxes = {};
  const byRate = new Map<string, Stripe.Checkout.Session.TotalDetails.Breakdown.Tax>();
  details.lineItems.forEach((item, index) => {
    const tax = taxes[index];
    const line = lines[index];
    if (!tax || !line) return;
    const rate = taxRateFor(emulator, account, tax);
    item.amount_tax = tax.amount;
    item.amount_total = line.amount + (tax.inclusive ? 0 : tax.amount);
    const entry = {
      amount: tax.amount,
      rate: snapshot(rate),
      taxability_reason: tax.reason,
      taxable_amount: tax.taxableAmount,
    };
    record.lineTaxes[item.id] = [entry];
    const sum = byRate.get(rate.id);
    if (sum) {
      sum.amount += tax.amount;
      sum.taxable_amount = (sum.taxable_amount ?? 0) + tax.taxableAmount;
    } else {
      byRate.set(rate.id, snapshot(entry));
    }
  });
  record.breakdown.taxes = [...byRate.values()];
  details.tax = record;
  const totals = taxTotals(taxes);
  const subtotal = session.amount_subtotal ?? 0;
  const discount = session.total_details?.amount_discount ?? 0;
  session.amount_total = subtotal - discount + totals.exclusive;
  session.total_details = { amount_discount: discount, amount_shipping: 0, amount_tax: totals.all };
  session.automatic_tax.status = "complete";
  emulator.store.set("checkoutDetails", session.id, details);
}

/** One `txr_…` per place, rate and behaviour on an account, made the first time it is needed. */
export function taxRateFor(emulator: Emulator, account: Scope, tax: LineTax): Stripe.TaxRate {
  const existing = emulator.store
    .list("taxRates", account)
    .find(
      (rate) =>
        rate.country === tax.place.country &&
        rate.state === tax.place.state &&
        rate.inclusive === tax.inclusive &&
        buildTaxRate(rate.id, rate.created, tax).percentage === rate.percentage,
    );
  if (existing) return existing;
  const rate = buildTaxRate(newId("txr"), emulator.now(), tax);
  emulator.store.put("taxRates", account, rate);
  return rate;
}

/** The session's `total_details.breakdown` (for `expand[]=total_details.breakdown`). */
export function checkoutBreakdown(
  emulator: Emulator,
  sessionId: string,
): Stripe.Checkout.Session.TotalDetails.Breakdown | undefined {
  const details = emulator.store.state.checkoutDetails[sessionId];
  if (!details) return undefined;
  return details.tax?.breakdown ?? { discounts: [], taxes: [] };
}

/** A line item's `taxes` (for `expand[]=data.taxes` / `line_items.data.taxes`). */
export function lineItemTaxes(emulator: Emulator, lineItemId: string): Stripe.LineItem.Tax[] | undefined {
  for (const details of Object.values(emulator.store.state.checkoutDetails)) {
    if (!details.lineItems.some((item) => item.id === lineItemId)) continue;
    return details.tax?.lineTaxes[lineItemId] ?? [];
  }
  return undefined;
}

export function placeLabel(place: Place): string {
  return place.state ? `${place.country}-${place.state}` : place.country;
}
