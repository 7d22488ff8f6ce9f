import type { Selectable } from "kysely";
import type { OrderTax } from "../../../contracts/tax";
import type { OrderTable } from "../../db/schema";

/** The order columns an order's tax is shown from (select them with the order). */
export const ORDER_TAX_COLUMNS = [
  "tax_cents",
  "tax_behavior",
  "tax_rate",
  "tax_type",
  "tax_jurisdiction",
  "taxability_reason",
  "buyer_country",
  "buyer_state",
  "reverse_charge",
] as const;

type OrderTaxRow = Pick<Selectable<OrderTable>, (typeof ORDER_TAX_COLUMNS)[number]>;

/** An order's tax as the sales table, the API and webhooks show it; null when Stripe Tax was not asked. */
export function orderTaxView(row: OrderTaxRow): OrderTax | null {
  if (row.taxability_reason === null && row.tax_cents === 0) return null;
  return {
    taxCents: row.tax_cents,
    taxBehavior: row.tax_behavior,
    taxRate: row.tax_rate,
    taxType: row.tax_type,
    taxJurisdiction: row.tax_jurisdiction,
    taxabilityReason: row.taxability_reason,
    buyerCountry: row.buyer_country,
    buyerState: row.buyer_state,
    reverseCharge: row.reverse_charge,
  };
}
