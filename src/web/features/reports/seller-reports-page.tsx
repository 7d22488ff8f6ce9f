import { MessageSquareReply, ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { SellerReport } from "../../../contracts/reports";
import { AppShell } from "../../components/layout/app-shell";
import { LoadMoreButton } from "../../components/load-more-button";
import { Badge } from "../../components/ui/badge";
import { Card } from "../../components/ui/card";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { RequireAuth } from "../auth/require-auth";
import { formatSaleDate } from "../sales/sale-format";
import { ReportStatusBadge, reasonLabel } from "./report-badges";
import { useSellerReports } from "./reports-api";

/**
 * A seller's pages about reports: signed in is enough. Not behind the plan's gate, since a seller whose
 * plan lapsed may still need to answer a report about what they sold.
 */
export function SellerReportsFrame({ children }: { children: (userId: string) => ReactNode }) {
  return <RequireAuth>{(user) => <AppShell>{children(user.id)}</AppShell>}</RequireAuth>;
}

export const subjectOf = (report: SellerReport) => report.productTitle ?? "Your store";

function ReportList({ reports }: { reports: SellerReport[] }) {
  return (
    <ul className="divide-y divide-line">
      {reports.map((report) => (
        <li key={report.id} className="px-4 py-4 sm:px-6">
          <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
            <div className="min-w-0 space-y-1">
              <Link
                to={`/dashboard/reports/${report.id}`}
                className="block font-medium break-words text-brand-700 underline-offset-2 hover:underline"
              >
                {reasonLabel(report.reason)}: {subjectOf(report)}
              </Link>
              <p className="line-clamp-2 text-sm break-words text-muted">
                {report.details || (report.claim ? `Copyright claim by ${report.claim.claimantName}` : "")}
              </p>
            </div>
            <div className="flex shrink-0 flex-wrap items-center gap-1.5 text-xs text-muted">
              <span className="tabular-nums">{formatSaleDate(report.createdAt)}</span>
              <ReportStatusBadge status={report.status} />
              {report.answer && (
                <Badge tone="success">
                  <MessageSquareReply className="size-3" aria-hidden="true" />
                  Answered
                </Badge>
              )}
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}

function Reports({ userId }: { userId: string }) {
  const { data, error, isPending, refetch, hasNextPage, fetchNextPage, isFetchingNextPage } =
    useSellerReports(userId);
  const reports = data?.pages.flatMap((page) => page.reports) ?? [];
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold tracking-tight text-ink">Reports about your store</h1>
        <p className="mt-1 text-sm text-muted">
          What visitors reported about your products or your store, and what we decided. Open one to read it
          and answer; a copyright claim can be answered with a counter-notice.
        </p>
      </div>
      <Card className="overflow-hidden" role="region" aria-label="Reports">
        {isPending ? (
          <div className="flex justify-center py-10">
            <Spinner label="Loading reports" />
          </div>
        ) : error && reports.length === 0 ? (
          <RetryNotice
            className="m-6"
            message="Reports could not be loaded."
            onRetry={() => void refetch()}
          />
        ) : reports.length === 0 ? (
          <div className="flex flex-col items-center gap-2 px-6 py-12 text-center">
            <ShieldCheck aria-hidden="true" className="size-8 text-emerald-600" />
            <p className="font-medium text-ink">No reports about your store.</p>
          </div>
        ) : (
          <>
            <ReportList reports={reports} />
            {hasNextPage && (
              <LoadMoreButton onLoadMore={() => void fetchNextPage()} loading={isFetchingNextPage} />
            )}
          </>
        )}
      </Card>
    </div>
  );
}

/** /dashboard/reports: "Reports about your store". */
export function SellerReportsPage() {
  return <SellerReportsFrame>{(userId) => <Reports userId={userId} />}</SellerReportsFrame>;
}
