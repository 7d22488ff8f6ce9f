import { useState } from "react";
import { type BuyerPurchase, PURCHASE_RULES, type PurchaseFile } from "../../../contracts/orders";
import { useStoreName } from "../../components/layout/creator-page-shell";
import { Badge } from "../../components/ui/badge";
import { Card } from "../../components/ui/card";
import { useI18n, useServerText } from "../../lib/i18n";
import { DownloadButton } from "../downloads/download-button";
import { FileUsedUp, PurchaseFileRow } from "../downloads/purchase-file-list";
import { InvoiceLinks } from "../invoices/invoice-links";
import { LicenseKey } from "../licenses/license-key";
import { ProductCover } from "../products/product-cover";

/** One file with its own button; its count follows the downloads started here. */
export function LibraryFile({ file, downloadPath }: { file: PurchaseFile; downloadPath: string }) {
  const { t } = useI18n();
  const serverText = useServerText();
  const [downloadsRemaining, setDownloadsRemaining] = useState(file.downloadsRemaining);
  const [refusal, setRefusal] = useState<string | null>(null);
  return (
    <PurchaseFileRow
      file={{ ...file, downloadsRemaining }}
      action={
        refusal ? (
          <p className="max-w-60 text-sm text-muted">{serverText(refusal)}</p>
        ) : downloadsRemaining === 0 ? (
          <FileUsedUp />
        ) : (
          <DownloadButton
            downloadPath={downloadPath}
            fileId={file.id}
            className="w-full sm:w-auto"
            aria-label={t("download.buttonFor", { name: file.name })}
            onStarted={setDownloadsRemaining}
            onRefused={setRefusal}
          />
        )
      }
    />
  );
}

/** The download rule under a purchase's files: up to 3 downloads each, until the window's last day. */
function DownloadAllowance({ windowEndsAt }: { windowEndsAt: string }) {
  const { t, date } = useI18n();
  return (
    <p className="text-sm text-muted">
      {t("terms.allowanceUntil", { max: PURCHASE_RULES.maxDownloads, date: date(new Date(windowEndsAt)) })}
    </p>
  );
}

function DownloadOrReason({ purchase }: { purchase: BuyerPurchase }) {
  const { t } = useI18n();
  const serverText = useServerText();
  const reason = purchase.unavailableReason;
  if (reason || !purchase.downloadPath) {
    return (
      <p className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-muted">{reason && serverText(reason)}</p>
    );
  }
  const { downloadPath } = purchase;
  return (
    <div className="space-y-2">
      <ul className="space-y-2" aria-label={t("library.filesOf", { title: purchase.productTitle })}>
        {purchase.files.map((file) => (
          <LibraryFile key={file.id} file={file} downloadPath={downloadPath} />
        ))}
      </ul>
      <DownloadAllowance windowEndsAt={purchase.downloadWindowEndsAt} />
    </div>
  );
}

/** One purchase in the library: what, from whom, when, and its download (or why there is none). */
export function PurchaseCard({
  purchase,
  headingLevel = "h2",
}: {
  purchase: BuyerPurchase;
  /** h3 under the library's "Purchases" heading, when the page has sections. */
  headingLevel?: "h2" | "h3";
}) {
  const Heading = headingLevel;
  const { t, money, date } = useI18n();
  const storeName = useStoreName();
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
              <Heading className="min-w-0 font-semibold wrap-anywhere text-ink">
                {purchase.productTitle}
              </Heading>
              <p className="font-semibold text-ink tabular-nums">
                {money(purchase.amountCents, purchase.currency)}
              </p>
            </div>
            <p className="mt-1 text-sm wrap-anywhere text-muted">
              {storeName(purchase.sellerName)}
              <span aria-hidden="true"> · </span>
              <span className="sr-only">{t("library.boughtOn")}</span>
              {date(new Date(purchase.createdAt))}
            </p>
            {purchase.status === "refunded" && (
              <Badge tone="neutral" className="mt-2">
                {t("library.refunded")}
              </Badge>
            )}
          </div>
        </div>
        <LicenseKey license={purchase.licenseKey} />
        <DownloadOrReason purchase={purchase} />
        <InvoiceLinks invoice={purchase.invoice} />
      </article>
    </Card>
  );
}
