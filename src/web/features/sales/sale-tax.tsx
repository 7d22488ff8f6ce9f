import { formatMoney } from "../../../contracts/money";
import type { Sale } from "../../../contracts/orders";
import { taxLabel } from "../../../contracts/tax";
import { DASHBOARD_LOCALE } from "../../lib/money";

/**
 * The tax inside a sale's amount and why ("incl. $3.80 · VAT 19% (DE)", "Reverse charge", "Tax not
 * collected"), under the amount in the table and with the facts on phones; in the sale's currency.
 * Nothing without tax.
 */
export function SaleTax({ sale, inline = false }: { sale: Sale; inline?: boolean }) {
  const label = sale.tax && taxLabel(sale.tax);
  if (!sale.tax || !label) return null;
  const text =
    sale.tax.taxCents > 0
      ? `incl. ${formatMoney(sale.tax.taxCents, sale.currency, DASHBOARD_LOCALE)} · ${label}`
      : label;
  return (
    <span className={inline ? "min-w-0 truncate tabular-nums" : "block text-xs font-normal text-muted"}>
      {text}
    </span>
  );
}
