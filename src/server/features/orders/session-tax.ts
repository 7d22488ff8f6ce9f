import type { Insertable, Selectable } from "kysely";
import type Stripe from "stripe";
import type { BillingAddress, TaxBehavior } from "../../../contracts/tax";
import type { CheckoutTable, OrderTable } from "../../db/schema";

/** The order's columns Stripe Tax and the buyer's billing details fill in (every one of them). */
export type OrderTaxColumns = Required<
  Pick<
    Insertable<OrderTable>,
    | "tax_cents"
    | "tax_behavior"
    | "tax_rate"
    | "tax_type"
    | "tax_jurisdiction"
    | "taxability_reason"
    | "buyer_name"
    | "buyer_address"
    | "buyer_country"
    | "buyer_state"
    | "buyer_business_name"
    | "buyer_tax_id"
    | "buyer_tax_id_check"
    | "reverse_charge"
    | "withdrawal_waiver"
    | "withdrawal_waiver_at"
  >
>;

/** A business buyer as recorded with the checkout before Checkout (name, VAT number and its check). */
export type RecordedBuyer = Pick<
  Selectable<CheckoutTable>,
  "buyer_business_name" | "buyer_tax_id" | "buyer_tax_id_check"
>;

/** The withdrawal waiver the buyer accepted: its wording and when it was recorded. */
export interface AcceptedWaiver {
  text: string;
  at: Date;
}

/** What Stripe Tax answered on a paid session or invoice, in the terms both have. */
interface StripeTaxAnswer {
  /** Stripe Tax ran (automatic_tax enabled). */
  enabled: boolean;
  /** All the tax, inside what the buyer paid. */
  taxCents: number;
  behavior: TaxBehavior | null;
  /** The rate of the tax that was charged (or of the place where none was): percentage, place, type. */
  rate: Stripe.TaxRate | undefined;
  taxabilityReason: string | null;
  address: Stripe.Address | null | undefined;
  name: string | null | undefined;
  businessName: string | null | undefined;
  taxId: string | null | undefined;
}

function addressOf(address: Stripe.Address | null | undefined): BillingAddress | null {
  if (!address?.country) return null;
  const { line1, line2, city, state, postal_code, country } = address;
  return { line1, line2, city, state, postal_code, country };
}

/**
 * The one mapping of Stripe Tax's answer to an order's columns, for a one-time sale's session and a
 * membership period's invoice alike. Stripe's numbers are kept as they are: the tax inside the total, its
 * rate and place, and why (`not_collecting` where the seller is not registered, `reverse_charge` for a
 * business buyer). A business buyer recorded before Checkout (with its VIES check) comes first.
 */
function orderTaxColumns(
  answer: StripeTaxAnswer,
  recorded: RecordedBuyer | undefined,
  waiver: AcceptedWaiver | undefined,
): OrderTaxColumns {
  const { rate } = answer;
  const address = addressOf(answer.address);
  const country = address?.country ?? rate?.country ?? null;
  return {
    tax_cents: answer.enabled ? answer.taxCents : 0,
    tax_behavior: rate ? answer.behavior : null,
    tax_rate: rate ? String(rate.percentage) : null,
    tax_type: rate?.tax_type ?? null,
    tax_jurisdiction: rate?.jurisdiction ?? null,
    taxability_reason: answer.taxabilityReason,
    buyer_name: answer.name ?? null,
    buyer_address: address ? JSON.stringify(address) : null,
    buyer_country: country,
    buyer_state: country === "US" ? (address?.state ?? rate?.state ?? null) : null,
    buyer_business_name: recorded?.buyer_business_name ?? answer.businessName ?? null,
    buyer_tax_id: recorded?.buyer_tax_id ?? answer.taxId ?? null,
    buyer_tax_id_check: recorded?.buyer_tax_id_check ? JSON.stringify(recorded.buyer_tax_id_check) : null,
    reverse_charge: answer.taxabilityReason === "reverse_charge",
    withdrawal_waiver: waiver?.text ?? null,
    withdrawal_waiver_at: waiver?.at ?? null,
  };
}

/**
 * An order's tax and buyer, from the paid session as Stripe answered it (read with its tax breakdown,
 * checkout-session.ts) and the checkout as recorded before Checkout (a business buyer, the waiver's
 * wording, kept when Stripe says the buyer accepted it).
 */
export function orderTaxOf(
  session: Stripe.Checkout.Session,
  checkout: Selectable<CheckoutTable>,
  now: Date,
): OrderTaxColumns {
  const tax = session.total_details?.breakdown?.taxes[0];
  const rate = tax?.rate;
  const waived = checkout.withdrawal_waiver !== null && session.consent?.terms_of_service === "accepted";
  return orderTaxColumns(
    {
      enabled: Boolean(session.automatic_tax?.enabled),
      taxCents: session.total_details?.amount_tax ?? 0,
      behavior: rate ? (rate.inclusive ? "inclusive" : "exclusive") : null,
      rate,
      taxabilityReason: tax?.taxability_reason ?? null,
      address: session.customer_details?.address,
      name: session.customer_details?.name,
      businessName: session.customer_details?.business_name,
      taxId: session.customer_details?.tax_ids?.[0]?.value,
    },
    checkout,
    waived && checkout.withdrawal_waiver ? { text: checkout.withdrawal_waiver, at: now } : undefined,
  );
}

/**
 * The tax entry an invoice's order is described by: the first that took an amount (a proration
 * invoice may also credit), else the first (a place where nothing was collected, a trial's $0).
 */
export function mainInvoiceTax(invoice: Stripe.Invoice): Stripe.Invoice.TotalTax | undefined {
  const taxes = invoice.total_taxes ?? [];
  return taxes.find((tax) => tax.amount !== 0) ?? taxes[0];
}

/** The id of the tax rate of an invoice's main tax (`txr_…`): read it with `taxRates.retrieve`. */
export function invoiceTaxRateId(invoice: Stripe.Invoice): string | undefined {
  const rate = mainInvoiceTax(invoice)?.tax_rate_details?.tax_rate;
  return rate ?? undefined;
}

/**
 * A membership period's order's tax and buyer, from its paid invoice as Stripe answered it (`total_taxes`,
 * the customer's address and tax IDs as they were when it was drafted), the main tax's rate (read with
 * `taxRates.retrieve`: an invoice names it by id), the business buyer recorded with the membership's first
 * checkout, and the waiver the member accepted there. The tax is all of the invoice's, kept within what
 * was paid (a credit or the customer's balance can leave less to pay than the invoice's total).
 */
export function orderTaxOfInvoice(
  invoice: Stripe.Invoice,
  rate: Stripe.TaxRate | undefined,
  recorded: RecordedBuyer | undefined,
  waiver: AcceptedWaiver | undefined,
): OrderTaxColumns {
  const main = mainInvoiceTax(invoice);
  const taxCents = (invoice.total_taxes ?? []).reduce((sum, tax) => sum + tax.amount, 0);
  return orderTaxColumns(
    {
      enabled: Boolean(invoice.automatic_tax?.enabled),
      taxCents: Math.min(Math.max(taxCents, 0), invoice.amount_paid),
      behavior: main ? (main.tax_behavior === "inclusive" ? "inclusive" : "exclusive") : null,
      rate,
      taxabilityReason: main?.taxability_reason ?? null,
      address: invoice.customer_address,
      name: invoice.customer_name,
      businessName: null,
      taxId: invoice.customer_tax_ids?.[0]?.value,
    },
    recorded,
    waiver,
  );
}
