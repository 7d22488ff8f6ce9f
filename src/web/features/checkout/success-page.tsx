import { CircleCheck, Mail, RotateCcw, SearchX } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { BuyerPurchase } from "../../../contracts/orders";
import type { Creator } from "../../components/layout/creator-page-shell";
import { Button } from "../../components/ui/button";
import { NoticeCard } from "../../components/ui/notice-card";
import { Spinner } from "../../components/ui/spinner";
import { useI18n, useServerText } from "../../lib/i18n";
import { DownloadTermsItems } from "../downloads/download-terms-notes";
import { PublicBuyerPageFrame } from "../downloads/public-buyer-page-frame";
import { PurchaseFacts } from "../downloads/purchase-facts";
import { PurchaseFileForms } from "../downloads/purchase-file-list";

import { InvoiceLinks } from "../invoices/invoice-links";
import { LicenseKey } from "../licenses/license-key";

/** What the server found for the checkout session: the page refreshes itself while it is processing. */
export type OrderLookup =
  | { state: "processing" }
  | { state: "found"; purchase: BuyerPurchase }
  | { state: "notFound" };

function Processing() {
  const { t } = useI18n();
  return (
    <NoticeCard icon={CircleCheck} tone="success" title={t("success.processing")}>
      <p className="mt-2 max-w-sm text-sm text-muted">{t("success.confirming")}</p>
      <Spinner className="mt-6" label={t("success.looking")} />
    </NoticeCard>
  );
}

function NotFound() {
  const { t } = useI18n();
  return (
    <NoticeCard icon={SearchX} tone="neutral" title={t("success.notFound")}>
      <p className="mt-2 max-w-sm text-sm text-muted">{t("success.notFoundHelp")}</p>
      <Button asChild className="mt-6">
        <Link to="/">{t("notFound.returnHome")}</Link>
      </Button>
    </NoticeCard>
  );
}

function EmailNote({ children }: { children: ReactNode }) {
  return (
    <p className="mt-5 flex items-start gap-2 text-left text-sm text-muted">
      <Mail className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden="true" />
      <span>{children}</span>
    </p>
  );
}

/** The buyer's email in a sentence (the message's <b> tag). */
const emailAddress = (chunks: ReactNode[]) => (
  <span key="email" className="font-medium wrap-anywhere text-ink">
    {chunks}
  </span>
);

function PaidOrder({ purchase }: { purchase: BuyerPurchase }) {
  const { t, rich } = useI18n();
  const serverText = useServerText();
  const reason = purchase.unavailableReason;
  return (
    <NoticeCard icon={CircleCheck} tone="success" title={t("success.thanks")}>
      <p className="mt-2 text-base font-semibold wrap-anywhere text-ink">{purchase.productTitle}</p>
      <PurchaseFacts purchase={purchase} showEmail className="mt-5 w-full border-y border-line text-left" />
      <LicenseKey license={purchase.licenseKey} className="mt-5 w-full" />
      <InvoiceLinks invoice={purchase.invoice} className="mt-4 w-full justify-center" />
      <div className="mt-6 w-full space-y-4">
        {reason || !purchase.downloadPath ? (
          <p role="status" className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-muted">
            {reason && serverText(reason)}
          </p>
        ) : (
          <>
            <PurchaseFileForms
              files={purchase.files}
              downloadPath={purchase.downloadPath}
              label={purchase.files.length === 1 ? t("download.yourFile") : t("download.button")}
            />
            <ul className="space-y-2">
              <DownloadTermsItems windowEndsAt={purchase.downloadWindowEndsAt} />
            </ul>
          </>
        )}
      </div>
      {purchase.withdrawalWaiver && (
        <p className="mt-4 text-left text-xs text-muted">
          {t("success.agreed", { waiver: purchase.withdrawalWaiver })}
        </p>
      )}
      <EmailNote>
        {rich<ReactNode>("success.emailed", { email: purchase.customerEmail, b: emailAddress })}
      </EmailNote>
    </NoticeCard>
  );
}

/** Refunded by the creator, or at once because the last copy had sold out: no thanks, no download. */
function RefundedOrder({ purchase }: { purchase: BuyerPurchase }) {
  const { t, rich } = useI18n();
  return (
    <NoticeCard icon={RotateCcw} tone="neutral" title={t("unavailable.refunded")}>
      <p className="mt-2 text-base font-semibold wrap-anywhere text-ink">{purchase.productTitle}</p>
      <p className="mt-2 max-w-sm text-sm text-muted">{t("message.refunded")}</p>
      <PurchaseFacts purchase={purchase} className="mt-5 w-full border-y border-line text-left" />
      <InvoiceLinks invoice={purchase.invoice} className="mt-4 w-full justify-center" />
      <EmailNote>
        {rich<ReactNode>("success.refundEmailed", { email: purchase.customerEmail, b: emailAddress })}
      </EmailNote>
    </NoticeCard>
  );
}

/**
 * /success?session_id=…: where Stripe Checkout sends the buyer after paying (product rules, Screens and routes), rendered
 * on the server (features/public-pages), which looks the order up and refreshes the page while it is
 * processing, so it works without JavaScript. `creator` is the seller the checkout was with, once known.
 */
export function SuccessPage({ lookup, creator }: { lookup: OrderLookup; creator: Creator | null }) {
  return (
    <PublicBuyerPageFrame creator={creator}>
      {lookup.state === "processing" && <Processing />}
      {lookup.state === "notFound" && <NotFound />}
      {lookup.state === "found" &&
        (lookup.purchase.status === "refunded" ? (
          <RefundedOrder purchase={lookup.purchase} />
        ) : (
          <PaidOrder purchase={lookup.purchase} />
        ))}
    </PublicBuyerPageFrame>
  );
}
