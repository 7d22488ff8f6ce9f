import { useQuery } from "@tanstack/react-query";
import { LogIn, ShieldAlert } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { Button } from "../../components/ui/button";
import { NoticeCard } from "../../components/ui/notice-card";
import { PageSpinner } from "../../components/ui/spinner";
import { ApiError, hasCode } from "../../lib/api";
import { BuyerPageFrame } from "../downloads/buyer-page-frame";
import { InvalidLinkNotice, LoadFailedNotice } from "../downloads/download-notices";
import { libraryQuery } from "./library-api";
import { LibraryContent } from "./library-content";

const RECEIPT_HINT =
  "The library link in any of your receipt emails opens your purchases without an account.";

/** Why the library cannot be shown, in the buyer's terms. */
function LibraryError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  if (!(error instanceof ApiError) || error.status >= 500) return <LoadFailedNotice onRetry={onRetry} />;
  if (error.status === 401) {
    return (
      <NoticeCard icon={LogIn} tone="brand" title="Open your library">
        <p className="mt-2 max-w-sm text-sm text-muted">{RECEIPT_HINT}</p>
        <Button asChild className="mt-6">
          <Link to="/auth?tab=login&redirect=/library">Sign in</Link>
        </Button>
      </NoticeCard>
    );
  }
  if (hasCode(error, "email_not_verified")) {
    return (
      <NoticeCard icon={ShieldAlert} tone="warning" title="Verify your email first">
        <p className="mt-2 max-w-sm text-sm text-muted">{error.message}</p>
        <p className="mt-2 max-w-sm text-sm text-muted">{RECEIPT_HINT}</p>
      </NoticeCard>
    );
  }
  if (hasCode(error, "link_invalid")) return <InvalidLinkNotice />;
  return (
    <NoticeCard icon={ShieldAlert} tone="warning" title="This library link no longer works">
      <p className="mt-2 max-w-sm text-sm text-muted">{error.message}</p>
    </NoticeCard>
  );
}

function Library({ token }: { token: string | null }) {
  const { data, error, isPending, refetch } = useQuery(libraryQuery(token));
  if (isPending) return <PageSpinner label="Loading your purchases" />;
  if (error) return <LibraryError error={error} onRetry={() => void refetch()} />;
  return <LibraryContent data={data} token={token} />;
}

/** /library?token=… (from any receipt) or /library for a signed-in buyer: every purchase, newest first. */
export function LibraryPage() {
  const token = useSearchParams()[0].get("token");
  return (
    <BuyerPageFrame title="Your purchases">
      <Library token={token} />
    </BuyerPageFrame>
  );
}
