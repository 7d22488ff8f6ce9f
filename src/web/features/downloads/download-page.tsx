import { useQuery, useQueryClient } from "@tanstack/react-query";
import { FileText } from "lucide-react";
import { useParams } from "react-router";
import { type DownloadPage as DownloadPageData, PURCHASE_RULES } from "../../../contracts/orders";
import { Card } from "../../components/ui/card";
import { PageSpinner } from "../../components/ui/spinner";
import { ApiError } from "../../lib/api";
import { formatBytes } from "../../lib/format-bytes";
import { ProductCover } from "../products/product-cover";
import { BuyerPageFrame } from "./buyer-page-frame";
import { DownloadButton } from "./download-button";
import {
  ExpiredLinkNotice,
  InvalidLinkNotice,
  LoadFailedNotice,
  UnavailableNotice,
} from "./download-notices";
import { downloadKeys, downloadPageQuery } from "./downloads-api";
import { PurchaseFacts } from "./purchase-facts";

/** Keeps the page in step with what the server said on the last click, without another request. */
function useDownloadPageCache(token: string) {
  const queryClient = useQueryClient();
  const update = (change: (page: DownloadPageData) => DownloadPageData) =>
    queryClient.setQueryData<DownloadPageData>(downloadKeys.page(token), (page) => page && change(page));
  return {
    onStarted: (downloadsRemaining: number) =>
      update((page) => ({
        ...page,
        purchase: {
          ...page.purchase,
          downloadsRemaining,
          downloadsUsed: PURCHASE_RULES.maxDownloads - downloadsRemaining,
        },
      })),
    onRefused: (reason: string) =>
      update((page) => ({ ...page, purchase: { ...page.purchase, unavailableReason: reason } })),
  };
}

function ReadyToDownload({ token, page }: { token: string; page: DownloadPageData }) {
  const { purchase, fileName, fileSizeBytes } = page;
  const cache = useDownloadPageCache(token);
  const noneLeft = purchase.downloadsRemaining === 0;
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
          <p className="text-xs font-medium tracking-wide text-muted uppercase">Your download</p>
          <h1 className="mt-0.5 text-lg font-semibold break-words text-ink sm:text-xl">
            {purchase.productTitle}
          </h1>
        </div>
      </div>
      <div className="space-y-5 p-5 sm:p-6">
        {fileName && (
          <p className="flex min-w-0 items-center gap-2 rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-ink">
            <FileText className="size-4 shrink-0 text-brand-600" aria-hidden="true" />
            <span className="min-w-0 truncate font-medium" title={fileName}>
              {fileName}
            </span>
            {fileSizeBytes !== null && (
              <span className="ml-auto shrink-0 text-muted tabular-nums">{formatBytes(fileSizeBytes)}</span>
            )}
          </p>
        )}
        <PurchaseFacts purchase={purchase} />
        <DownloadButton
          downloadPath={`/download/${encodeURIComponent(token)}`}
          size="lg"
          className="w-full"
          disabled={noneLeft}
          label={noneLeft ? "No downloads left" : "Download"}
          onStarted={cache.onStarted}
          onRefused={cache.onRefused}
        />
        <p className="text-center text-xs text-muted">
          Each click counts as one download and opens the file in a new tab.
        </p>
      </div>
    </Card>
  );
}

function DownloadState({ token }: { token: string }) {
  const { data, error, isPending, refetch } = useQuery(downloadPageQuery(token));
  if (isPending) return <PageSpinner label="Loading your download" />;
  if (error) {
    if (error instanceof ApiError && error.code === "link_expired") {
      const { productId, email } = error.details;
      return (
        <ExpiredLinkNotice
          productId={typeof productId === "string" ? productId : null}
          maskedEmail={typeof email === "string" ? email : null}
        />
      );
    }
    if (error instanceof ApiError && error.status < 500) return <InvalidLinkNotice />;
    return <LoadFailedNotice onRetry={() => void refetch()} />;
  }
  if (data.purchase.unavailableReason) {
    return (
      <UnavailableNotice reason={data.purchase.unavailableReason} productTitle={data.purchase.productTitle} />
    );
  }
  return <ReadyToDownload token={token} page={data} />;
}

/** /download/{token}: the page behind the buyer's 24-hour link (receipt, success page, library). */
export function DownloadPage() {
  const { token = "" } = useParams();
  return (
    <BuyerPageFrame title="Your download">
      <DownloadState token={token} />
    </BuyerPageFrame>
  );
}
