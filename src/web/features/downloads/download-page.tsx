import { Info, MousePointerClick } from "lucide-react";
import type { DownloadPage as DownloadPageData } from "../../../contracts/orders";
import type { Creator } from "../../components/layout/creator-page-shell";
import { Card } from "../../components/ui/card";
import { useI18n, useServerText } from "../../lib/i18n";
import { LicenseKey } from "../licenses/license-key";
import { ProductCover } from "../products/product-cover";
import { ExpiredLinkNotice, InvalidLinkNotice, UnavailableNotice } from "./download-notices";
import { DownloadTermsItems, NoteItem } from "./download-terms-notes";
import { PublicBuyerPageFrame } from "./public-buyer-page-frame";
import { PurchaseFacts } from "./purchase-facts";
import { PurchaseFileForms } from "./purchase-file-list";
import type { ResendAnswer } from "./resend-link-form";

/** What the server found behind a download link, or why there is nothing to download. */
export type DownloadState =
  | { kind: "ready"; page: DownloadPageData; downloadPath: string; notice?: string }
  | { kind: "unavailable"; reason: string; productTitle: string }
  | { kind: "expired"; maskedEmail: string | null; resendAction: string | null; answer?: ResendAnswer }
  | { kind: "invalid" };

/** Why the download just asked for was refused, above the files that can still be downloaded. */
function RefusalNotice({ message }: { message: string }) {
  const serverText = useServerText();
  return (
    <p
      role="alert"
      className="flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2.5 text-sm text-amber-900"
    >
      <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>{serverText(message)}</span>
    </p>
  );
}

function ReadyToDownload({
  page,
  downloadPath,
  notice,
}: {
  page: DownloadPageData;
  downloadPath: string;
  notice?: string | undefined;
}) {
  const { t } = useI18n();
  const { purchase } = page;
  return (
    <Card className="overflow-hidden">
      <div className="flex items-center gap-4 border-b border-line p-5 sm:p-6">
        <ProductCover
          url={purchase.coverThumbnailUrl}
          title={purchase.productTitle}
          className="h-14 w-[6.7rem] shrink-0 rounded-lg border border-line"
          iconClassName="size-6"
        />
        <div className="min-w-0">
          <p className="text-xs font-medium tracking-wide text-muted uppercase">{t("download.yours")}</p>
          <h1 className="mt-0.5 text-lg font-semibold wrap-anywhere text-ink sm:text-xl">
            {purchase.productTitle}
          </h1>
        </div>
      </div>
      <div className="space-y-5 p-5 sm:p-6">
        {notice && <RefusalNotice message={notice} />}
        <PurchaseFileForms files={purchase.files} downloadPath={downloadPath} />
        <PurchaseFacts purchase={purchase} />
        <LicenseKey license={purchase.licenseKey} />
        <ul className="space-y-2">
          <NoteItem icon={MousePointerClick}>{t("download.eachClick")}</NoteItem>
          <DownloadTermsItems windowEndsAt={purchase.downloadWindowEndsAt} />
        </ul>
      </div>
    </Card>
  );
}

function DownloadStateView({ state, storeHref }: { state: DownloadState; storeHref: string | null }) {
  switch (state.kind) {
    case "ready":
      return <ReadyToDownload page={state.page} downloadPath={state.downloadPath} notice={state.notice} />;
    case "unavailable":
      return (
        <UnavailableNotice reason={state.reason} productTitle={state.productTitle} storeHref={storeHref} />
      );
    case "expired":
      return (
        <ExpiredLinkNotice
          maskedEmail={state.maskedEmail}
          resendAction={state.resendAction}
          answer={state.answer}
        />
      );
    case "invalid":
      return <InvalidLinkNotice />;
  }
}

/**
 * /download/{token}: the page behind the buyer's 24-hour link (receipt, success page, library),
 * rendered on the server (features/public-pages); its Download button is a form. `creator` is the
 * seller of the purchase, null for a link that names none.
 */
export function DownloadPage({ state, creator }: { state: DownloadState; creator: Creator | null }) {
  return (
    <PublicBuyerPageFrame creator={creator}>
      <DownloadStateView state={state} storeHref={creator?.storeHref ?? null} />
    </PublicBuyerPageFrame>
  );
}
