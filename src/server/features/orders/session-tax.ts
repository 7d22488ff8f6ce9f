import type { Insertable, Selectable } from "kysely";
import type Stripe from "stripe";
import type { BillingAddress } from "../../../contracts/tax";
import type { CheckoutTable, OrderTable } from "../../db/schema";

/** The order's columns Stripe Tax and the buyer's billing details fill in. */
export type OrderTaxColumns = Pick<
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
>;

function addressOf(address: Stripe.Address | null | undefined): BillingAddress | null {
  if (!address?.country) return null;
  const { line1, line2, city, state, postal_code, country } = address;
  return { line1, line2, city, state, postal_code, country };
}

/**
 * An order's tax and buyer, from the paid session as Stripe answered it (read with its tax breakdown,
 * checkout-session.ts) and the checkout as recorded before Checkout (a business buyer, the waiver's
 * wording). Stripe's numbers are kept as they are: the tax inside the total, its rate and place, and
 * why (`not_collecting` where the seller is not registered, `reverse_charge` for a business buyer).
 */
export function orderTaxOf(
  session: Stripe.Checkout.Session,
  checkout: Selectable<CheckoutTable>,
  now: Date,
): OrderTaxColumns {
  const tax = session.total_details?.breakdown?.taxes[0];
  const rate = tax?.rate;
  const address = addressOf(session.customer_details?.address);
  const country = address?.country ?? rate?.country ?? null;
  const waived = checkout.withdrawal_waiver !== null && session.consent?.terms_of_service === "accepted";
  return {
    tax_cents: session.automatic_tax?.enabled ? (session.total_details?.amount_tax ?? 0) : 0,
    tax_behavior: rate ? (rate.inclusive ? ("inclusive" as const) : ("exclusive" as const)) : null,
    tax_rate: rate ? String(rate.percentage) : null,
    tax_type: rate?.tax_type ?? null,
    tax_jurisdiction: rate?.jurisdiction ?? null,
    taxability_reason: tax?.taxability_reason ?? null,
    buyer_name: session.customer_details?.name ?? null,
    buyer_address: address ? JSON.stringify(address) : null,
    buyer_country: country,
    buyer_state: country === "US" ? (address?.state ?? rate?.state ?? null) : null,
    buyer_business_name: checkout.buyer_business_name ?? session.customer_details?.business_name ?? null,
    buyer_tax_id: checkout.buyer_tax_id ?? session.customer_details?.tax_ids?.[0]?.value ?? null,
    buyer_tax_id_check: checkout.buyer_tax_id_check ? JSON.stringify(checkout.buyer_tax_id_check) : null,
    reverse_charge: tax?.taxability_reason === "reverse_charge",
    withdrawal_waiver: waived ? checkout.withdrawal_waiver : null,
    withdrawal_waiver_at: waived ? now : null,
  };
}
