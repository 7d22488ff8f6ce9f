import { CircleCheck, Mail, SearchX } from "lucide-react";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { type BuyerPurchase, ORDER_MESSAGES } from "../../../contracts/orders";
import { Button } from "../../components/ui/button";
import { NoticeCard } from "../../components/ui/notice-card";
import { Spinner } from "../../components/ui/spinner";
import { BuyerPageFrame } from "../downloads/buyer-page-frame";
import { DownloadButton } from "../downloads/download-button";
import { PurchaseFacts } from "../downloads/purchase-facts";
import { useOrderLookup } from "./use-order-lookup";

function Processing() {
  return (
    <NoticeCard icon={CircleCheck} tone="success" title={ORDER_MESSAGES.processing}>
      <p className="mt-2 max-w-sm text-sm text-muted">
        Stripe is confirming your payment. This usually takes a few seconds.
      </p>
      <Spinner className="mt-6" label="Looking for your order" />
    </NoticeCard>
  );
}

function NotFound() {
  return (
    <NoticeCard icon={SearchX} tone="neutral" title={ORDER_MESSAGES.notFound}>
      <p className="mt-2 max-w-sm text-sm text-muted">
        If your payment went through, your receipt email has your download link and the link to your library.
      </p>
      <Button asChild className="mt-6">
        <Link to="/">Return to Home</Link>
      </Button>
    </NoticeCard>
  );
}

function OrderDetails({ purchase }: { purchase: BuyerPurchase }) {
  const [downloadsRemaining, setDownloadsRemaining] = useState(purchase.downloadsRemaining);
  const [refusal, setRefusal] = useState<string | null>(null);
  const reason = refusal ?? purchase.unavailableReason;
  return (
    <NoticeCard icon={CircleCheck} tone="success" title="Thank you for your purchase!">
      <p className="mt-2 text-base font-semibold break-words text-ink">{purchase.productTitle}</p>
      <PurchaseFacts
        purchase={purchase}
        downloadsRemaining={downloadsRemaining}
        showEmail
        className="mt-5 w-full border-y border-line text-left"
      />
      <div className="mt-6 w-full space-y-3">
        {reason || !purchase.downloadPath ? (
          <p role="status" className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-muted">
            {reason}
          </p>
        ) : (
          <DownloadButton
            downloadPath={purchase.downloadPath}
            label={downloadsRemaining === 0 ? "No downloads left" : "Download Your File"}
            disabled={downloadsRemaining === 0}
            size="lg"
            className="w-full"
            onStarted={setDownloadsRemaining}
            onRefused={setRefusal}
          />
        )}
      </div>
      <p className="mt-5 flex items-start gap-2 text-left text-sm text-muted">
        <Mail className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden="true" />
        <span>
          A receipt with your download link, and a link to all your purchases, was emailed to{" "}
          <span className="font-medium break-all text-ink">{purchase.customerEmail}</span>.
        </span>
      </p>
    </NoticeCard>
  );
}

/** /success?session_id=…: where Stripe Checkout sends the buyer after paying (SPEC section 2). */
export function SuccessPage() {
  const sessionId = useSearchParams()[0].get("session_id");
  const lookup = useOrderLookup(sessionId);
  return (
    <BuyerPageFrame title="Payment successful">
      {lookup.state === "processing" && <Processing />}
      {lookup.state === "notFound" && <NotFound />}
      {lookup.state === "found" && <OrderDetails purchase={lookup.purchase} />}
    </BuyerPageFrame>
  );
}
