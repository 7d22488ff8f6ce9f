import type { Sale } from "../../../contracts/orders";
import { SaleDiscount } from "../discounts/sale-discount";
import { SaleLicense } from "../licenses/sale-license";
import { SaleActionsMenu } from "./sale-actions-menu";
import { formatSaleDate, saleAmountLabel, salePeriodLabel, saleSettlementLabel } from "./sale-format";
import { SaleStatusBadge } from "./sale-status-badge";
import { SaleTax } from "./sale-tax";

type ListProps = { userId: string; sales: Sale[]; onRefund: (sale: Sale) => void };

const downloadsUsed = (sale: Sale) => `${sale.downloadsUsed} / ${sale.downloadsAllowed}`;

/** Under the product: the period a membership's sale paid for; nothing for a one-time sale. */
export function SalePeriod({ sale }: { sale: Pick<Sale, "periodStart" | "periodEnd"> }) {
  const label = salePeriodLabel(sale);
  if (!label) return null;
  return (
    <p className="truncate text-xs text-muted tabular-nums" title={label}>
      {label}
    </p>
  );
}

/** Under the amount in the table: what the sale settled as in the store currency, when paid in another. */
function SaleSettlement({ sale }: { sale: Sale }) {
  const label = saleSettlementLabel(sale);
  return label ? <span className="block text-xs font-normal text-muted">{label}</span> : null;
}

/** Wide screens: one row per sale; the customer's email over the product, so it fits the dashboard column. */
export function SalesTable({ userId, sales, onRefund }: ListProps) {
  return (
    <table className="w-full table-fixed text-left text-sm">
      <thead className="border-y border-line bg-slate-50/70 text-xs tracking-wide text-muted uppercase">
        <tr>
          <th scope="col" className="py-2.5 pr-3 pl-6 font-medium">
            Customer Email / Product
          </th>
          <th scope="col" className="w-28 px-3 py-2.5 text-right font-medium">
            Amount
          </th>
          <th scope="col" className="w-40 px-3 py-2.5 font-medium">
            Date
          </th>
          <th scope="col" className="w-28 px-3 py-2.5 font-medium">
            Status
          </th>
          <th scope="col" className="w-24 px-3 py-2.5 text-right font-medium">
            Downloads
          </th>
          <th scope="col" className="w-14 py-2.5 pr-4 pl-1">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-line">
        {sales.map((sale) => (
          <tr key={sale.id}>
            <td className="py-3 pr-3 pl-6">
              <p className="truncate font-medium text-ink" title={sale.customerEmail}>
                {sale.customerEmail}
              </p>
              <p className="truncate text-muted" title={sale.productTitle}>
                {sale.productTitle}
              </p>
              <SalePeriod sale={sale} />
              <SaleLicense userId={userId} sale={sale} className="mt-1" />
            </td>
            <td className="px-3 py-3 text-right font-medium text-ink tabular-nums">
              {saleAmountLabel(sale)}
              <SaleSettlement sale={sale} />
              <SaleDiscount sale={sale} />
              <SaleTax sale={sale} />
            </td>
            <td className="px-3 py-3 whitespace-nowrap text-muted tabular-nums">
              {formatSaleDate(sale.createdAt)}
            </td>
            <td className="px-3 py-3">
              <SaleStatusBadge status={sale.status} dispute={sale.dispute} importedFrom={sale.importedFrom} />
            </td>
            <td className="px-3 py-3 text-right text-muted tabular-nums">{downloadsUsed(sale)}</td>
            <td className="py-2 pr-4 pl-1 text-right">
              <SaleActionsMenu userId={userId} sale={sale} onRefund={onRefund} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Phones: one card per sale. */
export function SalesCards({ userId, sales, onRefund }: ListProps) {
  return (
    <ul className="divide-y divide-line border-t border-line">
      {sales.map((sale) => (
        <li key={sale.id} className="flex items-start gap-2 px-4 py-3">
          <div className="min-w-0 flex-1 space-y-1">
            <div className="flex items-baseline justify-between gap-3">
              <p className="min-w-0 truncate text-sm font-medium text-ink" title={sale.customerEmail}>
                {sale.customerEmail}
              </p>
              <p className="shrink-0 text-right text-sm font-semibold text-ink tabular-nums">
                {saleAmountLabel(sale)}
                {saleSettlementLabel(sale) && (
                  <span className="font-normal text-muted">
                    <span aria-hidden="true"> · </span>
                    <span className="sr-only">, </span>
                    {saleSettlementLabel(sale)}
                  </span>
                )}
              </p>
            </div>
            <p className="truncate text-sm text-muted" title={sale.productTitle}>
              {sale.productTitle}
            </p>
            <SalePeriod sale={sale} />
            <SaleLicense userId={userId} sale={sale} />
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
              <SaleStatusBadge status={sale.status} dispute={sale.dispute} importedFrom={sale.importedFrom} />
              <span className="tabular-nums">{formatSaleDate(sale.createdAt)}</span>
              <span className="tabular-nums">{downloadsUsed(sale)} downloads</span>
              <SaleDiscount sale={sale} inline />
              <SaleTax sale={sale} inline />
            </div>
          </div>
          <SaleActionsMenu userId={userId} sale={sale} onRefund={onRefund} />
        </li>
      ))}
    </ul>
  );
}
