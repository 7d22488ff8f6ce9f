import { formatMoney } from "../../../contracts/money";
import type { Sale } from "../../../contracts/orders";
import { DASHBOARD_LOCALE } from "../../lib/money";

/**
 * The discount code a sale was made with and what it saved the buyer, for the sales table (under the
 * amount) and the phone cards (with the sale's facts), in the sale's currency. Nothing for a sale
 * without a code.
 */
export function SaleDiscount({ sale, inline = false }: { sale: Sale; inline?: boolean }) {
  if (!sale.discountCode) return null;
  // An imported sale may name its code without the amount (Gumroad folds it into the price): just the code.
  const saved =
    sale.discountCents > 0 ? `−${formatMoney(sale.discountCents, sale.currency, DASHBOARD_LOCALE)}` : "";
  if (!saved) {
    return (
      <span className={inline ? "min-w-0 truncate" : "block truncate text-xs font-normal text-muted"}>
        Code {sale.discountCode}
      </span>
    );
  }
  if (inline) {
    return (
      <span className="min-w-0 truncate tabular-nums" title={`Code ${sale.discountCode}, saved ${saved}`}>
        Code {sale.discountCode} ({saved})
      </span>
    );
  }
  return (
    <span className="block text-xs font-normal text-muted" title={`Code ${sale.discountCode}`}>
      <span className="block truncate">{sale.discountCode}</span>
      <span className="block">
        <span className="sr-only">saved </span>
        {saved}
      </span>
    </span>
  );
}
