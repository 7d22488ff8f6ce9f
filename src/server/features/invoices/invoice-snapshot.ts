import type { Selectable } from "kysely";
import type { InvoiceLine, InvoiceParty } from "../../../contracts/invoices";
import { type BillingAddress, countryName, taxRateLabel } from "../../../contracts/tax";
import type { OrderTable } from "../../db/schema";

/** Stripe's address shape as printed lines: street, "postal code city", state, country. */
export function addressLines(address: BillingAddress | null, country: string | null): string[] {
  const lines = [
    address?.line1,
    address?.line2,
    [address?.postal_code, address?.city].filter(Boolean).join(" "),
    address?.state,
    countryName(address?.country ?? country),
  ];
  return lines.filter((line): line is string => typeof line === "string" && line.trim() !== "");
}

type OrderRow = Selectable<OrderTable>;

/** The buyer as the order names them; with no billing details (untaxed sales), the email alone. */
export function buyerOfOrder(order: OrderRow): InvoiceParty {
  const country = order.buyer_country ?? order.buyer_address?.country ?? null;
  const check = order.buyer_tax_id_check;
  return {
    name: order.buyer_name,
    businessName: order.buyer_business_name,
    address: addressLines(order.buyer_address, country),
    postalAddress: order.buyer_address,
    country,
    taxId: order.buyer_tax_id,
    email: order.customer_email,
    taxIdCheckedAt: order.buyer_tax_id && check?.status === "valid" ? check.checkedAt : null,
    taxIdCheck: order.buyer_tax_id && check?.status === "valid" ? check : null,
  };
}

/** The seller from their store's tax settings (legal name, address, tax ID), else the store's name. */
export function sellerParty(
  settings: { legal_name: string | null; legal_address: string | null; tax_id: string | null } | undefined,
  storeName: string | null,
  accountName: string,
): InvoiceParty {
  return {
    name: settings?.legal_name ?? storeName ?? accountName,
    businessName: settings?.legal_name && storeName && storeName !== settings.legal_name ? storeName : null,
    address: (settings?.legal_address ?? "")
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean),
    country: null,
    taxId: settings?.tax_id ?? null,
    email: null,
    taxIdCheckedAt: null,
  };
}

/** The order's one line: the product (a membership's with its period), net, tax and total in cents. */
export function lineOfOrder(order: OrderRow): InvoiceLine {
  const taxCents = order.reverse_charge ? 0 : order.tax_cents;
  return {
    description: order.product_title,
    periodStart: order.period_start?.toISOString() ?? null,
    periodEnd: order.period_end?.toISOString() ?? null,
    quantity: 1,
    netCents: order.amount_cents - taxCents,
    taxCents,
    totalCents: order.amount_cents,
    taxLabel:
      taxCents > 0
        ? taxRateLabel({
            taxType: order.tax_type,
            taxRate: order.tax_rate,
            taxJurisdiction: order.tax_jurisdiction,
          })
        : null,
  };
}

/** A credit note's lines: the invoice's, negative. */
export const creditLines = (lines: InvoiceLine[]): InvoiceLine[] =>
  lines.map((line) => ({
    ...line,
    netCents: -line.netCents,
    taxCents: -line.taxCents,
    totalCents: -line.totalCents,
  }));
