import type { ReactNode } from "react";
import { formatDay } from "../../../contracts/download-terms";
import { formatPrice } from "../../../contracts/money";
import type { BuyerPurchase } from "../../../contracts/orders";
import { cn } from "../../lib/utils";

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-2.5">
      <dt className="shrink-0 text-sm text-muted">{term}</dt>
      <dd className="min-w-0 text-right text-sm font-medium wrap-anywhere text-ink">{children}</dd>
    </div>
  );
}

/**
 * The facts of one purchase a buyer needs: what, from whom, how much, when. The downloads left are
 * said per file, beside each file (purchase-file-list.tsx); until when with the download rules
 * (DownloadTermsItems), in the same words on every page.
 */
export function PurchaseFacts({
  purchase,
  showEmail = false,
  className,
}: {
  purchase: BuyerPurchase;
  showEmail?: boolean;
  className?: string;
}) {
  return (
    <dl className={cn("divide-y divide-line", className)}>
      <Fact term="Sold by">{purchase.sellerName}</Fact>
      <Fact term={purchase.status === "refunded" ? "Amount refunded" : "Amount paid"}>
        <span className="tabular-nums">{formatPrice(purchase.amountCents)}</span>
      </Fact>
      {purchase.tax && (
        <Fact term="Tax included">
          <span className="tabular-nums">{formatPrice(purchase.tax.taxCents)}</span> · {purchase.tax.label}
        </Fact>
      )}
      {showEmail && <Fact term="Receipt sent to">{purchase.customerEmail}</Fact>}
      <Fact term="Purchased">{formatDay(purchase.createdAt)}</Fact>
    </dl>
  );
}
