import type { ReactNode } from "react";
import type { BuyerPurchase } from "../../../contracts/orders";
import { useStoreName } from "../../components/layout/creator-page-shell";
import { useI18n, useServerText } from "../../lib/i18n";
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
  const { t, money, date } = useI18n();
  const serverText = useServerText();
  const storeName = useStoreName();
  return (
    <dl className={cn("divide-y divide-line", className)}>
      <Fact term={t("product.soldBy")}>{storeName(purchase.sellerName)}</Fact>
      <Fact term={t(purchase.status === "refunded" ? "facts.amountRefunded" : "facts.amountPaid")}>
        <span className="tabular-nums">{money(purchase.amountCents, purchase.currency)}</span>
      </Fact>
      {purchase.tax && (
        <Fact term={t("facts.taxIncluded")}>
          <span className="tabular-nums">{money(purchase.tax.taxCents, purchase.currency)}</span> ·{" "}
          {serverText(purchase.tax.label)}
        </Fact>
      )}
      {showEmail && <Fact term={t("facts.receiptSentTo")}>{purchase.customerEmail}</Fact>}
      <Fact term={t("facts.purchased")}>{date(new Date(purchase.createdAt))}</Fact>
    </dl>
  );
}
