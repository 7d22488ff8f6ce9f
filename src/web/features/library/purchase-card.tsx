import { useState } from "react";
import { downloadAllowance, downloadsLeftLabel, formatDay } from "../../../contracts/download-terms";
import type { BuyerPurchase } from "../../../contracts/orders";
import { formatPrice } from "../../../contracts/products";
import { Badge } from "../../components/ui/badge";
import { Card } from "../../components/ui/card";
import { DownloadButton } from "../downloads/download-button";
import { ProductCover } from "../products/product-cover";

function DownloadOrReason({ purchase }: { purchase: BuyerPurchase }) {
  const [downloadsRemaining, setDownloadsRemaining] = useState(purchase.downloadsRemaining);
  const [refusal, setRefusal] = useState<string | null>(null);
  const reason = refusal ?? purchase.unavailableReason;
  if (reason || !purchase.downloadPath) {
    return <p className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-muted">{reason}</p>;
  }
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="text-sm">
        <p className="font-medium text-ink">{downloadsLeftLabel(downloadsRemaining)}</p>
        <p className="mt-0.5 text-muted">{downloadAllowance(purchase.downloadWindowEndsAt)}</p>
      </div>
      <DownloadButton
        downloadPath={purchase.downloadPath}
        disabled={downloadsRemaining === 0}
        className="w-full sm:w-auto"
        aria-label={`Download ${purchase.productTitle}`}
        onStarted={setDownloadsRemaining}
        onRefused={setRefusal}
      />
    </div>
  );
}

/** One purchase in the library: what, from whom, when, and its download (or why there is none). */
export function PurchaseCard({ purchase }: { purchase: BuyerPurchase }) {
  return (
    <Card className="p-4 sm:p-5">
      <article className="space-y-4" aria-label={purchase.productTitle}>
        <div className="flex gap-4">
          <ProductCover
            url={purchase.coverThumbnailUrl}
            title={purchase.productTitle}
            className="h-14 w-[6.7rem] shrink-0 rounded-lg border border-line sm:h-16 sm:w-[7.6rem]"
            iconClassName="size-6"
          />
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
              <h2 className="min-w-0 font-semibold wrap-anywhere text-ink">{purchase.productTitle}</h2>
              <p className="font-semibold text-ink tabular-nums">{formatPrice(purchase.amountCents)}</p>
            </div>
            <p className="mt-1 text-sm wrap-anywhere text-muted">
              {purchase.sellerName}
              <span aria-hidden="true"> · </span>
              <span className="sr-only">, bought </span>
              {formatDay(purchase.createdAt)}
            </p>
            {purchase.status === "refunded" && (
              <Badge tone="neutral" className="mt-2">
                Refunded
              </Badge>
            )}
          </div>
        </div>
        <DownloadOrReason purchase={purchase} />
      </article>
    </Card>
  );
}
