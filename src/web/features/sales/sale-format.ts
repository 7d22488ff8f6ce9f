import { format } from "date-fns";
import { formatMoney } from "../../../contracts/money";
import type { Sale } from "../../../contracts/orders";
import { DASHBOARD_LOCALE } from "../../lib/money";

/** product rules, The calls it makes: sales dates read 'MMM dd, yyyy HH:mm', in the seller's own time zone. */
export const formatSaleDate = (iso: string): string => format(new Date(iso), "MMM dd, yyyy HH:mm");

/**
 * "Membership period Mar 01 – Apr 01, 2026": the period a membership's sale paid for, in the table's
 * date format and time zone (the year once when both ends share it); null for a one-time sale.
 */
export function salePeriodLabel(sale: {
  periodStart: string | null;
  periodEnd: string | null;
}): string | null {
  if (!sale.periodStart || !sale.periodEnd) return null;
  const start = new Date(sale.periodStart);
  const end = new Date(sale.periodEnd);
  const sameYear = start.getFullYear() === end.getFullYear();
  return `Membership period ${format(start, sameYear ? "MMM dd" : "MMM dd, yyyy")} – ${format(end, "MMM dd, yyyy")}`;
}

/** "€18.00": what the buyer paid, in the currency they paid in. */
export const saleAmountLabel = (sale: Pick<Sale, "amountCents" | "currency">): string =>
  formatMoney(sale.amountCents, sale.currency, DASHBOARD_LOCALE);

/**
 * "settled $19.57": the same sale in the store currency, as Stripe settled it, when the buyer paid in
 * another currency; null when they paid in the store currency (the amount says it all).
 */
export function saleSettlementLabel(
  sale: Pick<Sale, "currency" | "settlementCents" | "settlementCurrency">,
): string | null {
  if (sale.currency === sale.settlementCurrency) return null;
  return `settled ${formatMoney(sale.settlementCents, sale.settlementCurrency, DASHBOARD_LOCALE)}`;
}
