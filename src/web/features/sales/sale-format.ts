import { format } from "date-fns";

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
