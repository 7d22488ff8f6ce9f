import { Inbox, MessageSquareReply, Undo2 } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import {
  type OperatorReportSummary,
  REPORT_STATUS_LABELS,
  REPORT_STATUSES,
  type ReportStatus,
} from "../../../contracts/reports";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { useMediaQuery } from "../../lib/use-media-query";
import { cn } from "../../lib/utils";
import { OperatorGate } from "../operator/operator-gate";
import { formatSaleDate } from "../sales/sale-format";
import { ReportStatusBadge, reasonLabel } from "./report-badges";
import { type QueueFilter, useReportQueue } from "./reports-api";

const subjectOf = (report: OperatorReportSummary) =>
  report.productTitle ?? `Store: ${report.storeName ?? "Unnamed store"}`;

function Answered({ report }: { report: OperatorReportSummary }) {
  return (
    <>
      {report.answered && (
        <Badge tone="success">
          <MessageSquareReply className="size-3" aria-hidden="true" />
          Seller answered
        </Badge>
      )}
      {report.readyToRestore && (
        <Badge tone="warning">
          <Undo2 className="size-3" aria-hidden="true" />
          Ready to restore
        </Badge>
      )}
    </>
  );
}

function QueueTable({ reports }: { reports: OperatorReportSummary[] }) {
  return (
    <table className="w-full table-fixed text-left text-sm">
      <thead className="border-y border-line bg-slate-50/70 text-xs tracking-wide text-muted uppercase">
        <tr>
          <th scope="col" className="w-48 py-2.5 pr-3 pl-6 font-medium">
            Received
          </th>
          <th scope="col" className="w-44 px-3 py-2.5 font-medium">
            Reason
          </th>
          <th scope="col" className="px-3 py-2.5 font-medium">
            Reported / by
          </th>
          <th scope="col" className="w-56 py-2.5 pr-6 pl-3 font-medium">
            Status
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-line">
        {reports.map((report) => (
          <tr key={report.id} className="hover:bg-slate-50/70">
            <td className="py-3 pr-3 pl-6 whitespace-nowrap text-muted tabular-nums">
              {formatSaleDate(report.createdAt)}
            </td>
            <td className="px-3 py-3 text-ink">{reasonLabel(report.reason)}</td>
            <td className="px-3 py-3">
              <Link
                to={`/operator/reports/${report.id}`}
                className="block truncate font-medium text-brand-700 underline-offset-2 hover:underline"
                title={subjectOf(report)}
              >
                {subjectOf(report)}
              </Link>
              <p className="truncate text-muted" title={report.reporterEmail}>
                {report.reporterEmail}
              </p>
            </td>
            <td className="py-3 pr-6 pl-3">
              <div className="flex flex-wrap gap-1.5">
                <ReportStatusBadge status={report.status} />
                <Answered report={report} />
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function QueueCards({ reports }: { reports: OperatorReportSummary[] }) {
  return (
    <ul className="divide-y divide-line border-t border-line">
      {reports.map((report) => (
        <li key={report.id} className="space-y-1.5 px-4 py-3 text-sm">
          <Link
            to={`/operator/reports/${report.id}`}
            className="block font-medium break-words text-brand-700 underline-offset-2 hover:underline"
          >
            {subjectOf(report)}
          </Link>
          <p className="text-ink">{reasonLabel(report.reason)}</p>
          <p className="truncate text-muted">{report.reporterEmail}</p>
          <div className="flex flex-wrap items-center gap-1.5 text-xs text-muted">
            <span className="tabular-nums">{formatSaleDate(report.createdAt)}</span>
            <ReportStatusBadge status={report.status} />
            <Answered report={report} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function Queue() {
  const [params, setParams] = useSearchParams();
  const statusParam = params.get("status") ?? "";
  // "ready": the reports whose counter-notice's date has passed with the product still taken down.
  const filter: QueueFilter =
    params.get("restore") === "ready"
      ? "ready"
      : (REPORT_STATUSES as readonly string[]).includes(statusParam)
        ? (statusParam as ReportStatus)
        : "";
  const page = Math.max(1, Number(params.get("page")) || 1);
  const { data, error, isPending, refetch, isFetching } = useReportQueue(filter, page);
  const wide = useMediaQuery("(min-width: 640px)");
  const List = wide ? QueueTable : QueueCards;
  const go = (next: { filter?: QueueFilter; page?: number }) => {
    const search = new URLSearchParams();
    const nextFilter = next.filter ?? filter;
    if (nextFilter === "ready") search.set("restore", "ready");
    else if (nextFilter) search.set("status", nextFilter);
    const nextPage = next.page ?? 1;
    if (nextPage > 1) search.set("page", String(nextPage));
    setParams(search);
  };
  const total = data ? Object.values(data.counts).reduce((sum, count) => sum + count, 0) : undefined;
  const filters: Array<{ value: QueueFilter; label: string; count: number | undefined }> = [
    { value: "", label: "All", count: total },
    ...REPORT_STATUSES.map((value) => ({
      value,
      label: REPORT_STATUS_LABELS[value],
      count: data?.counts[value],
    })),
    { value: "ready", label: "Ready to restore", count: data?.readyToRestore },
  ];

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-ink">Reports</h1>
        <p className="mt-1 text-sm text-muted">
          What visitors reported about products and stores, newest first. Open one to review it, decide, or
          act on the seller.
        </p>
      </div>
      <nav aria-label="Filter by status">
        <ul className="flex flex-wrap gap-2">
          {filters.map((option) => (
            <li key={option.value || "all"}>
              <button
                type="button"
                aria-pressed={filter === option.value}
                onClick={() => go({ filter: option.value })}
                className={cn(
                  "inline-flex h-9 items-center gap-2 rounded-full border px-3.5 text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-brand-500",
                  filter === option.value
                    ? "border-brand-600 bg-brand-600 text-white"
                    : "border-line bg-white text-ink hover:bg-slate-50",
                )}
              >
                {option.label}
                {option.count !== undefined && (
                  <span className="tabular-nums opacity-80">{option.count}</span>
                )}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <Card className="overflow-hidden" role="region" aria-label="Reports">
        {isPending ? (
          <div className="flex justify-center py-10">
            <Spinner label="Loading reports" />
          </div>
        ) : error && !data ? (
          <RetryNotice
            className="m-6"
            message="Reports could not be loaded."
            onRetry={() => void refetch()}
          />
        ) : data.reports.length === 0 ? (
          <div className="flex flex-col items-center gap-2 px-6 py-12 text-center">
            <Inbox aria-hidden="true" className="size-8 text-muted" />
            <p className="font-medium text-ink">No reports here.</p>
          </div>
        ) : (
          <>
            <List reports={data.reports} />
            {(page > 1 || data.hasMore) && (
              <div className="flex items-center justify-between gap-3 border-t border-line px-4 py-3 sm:px-6">
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={page <= 1 || isFetching}
                  onClick={() => go({ page: page - 1 })}
                >
                  Newer
                </Button>
                <span className="text-sm text-muted tabular-nums">Page {page}</span>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={!data.hasMore || isFetching}
                  onClick={() => go({ page: page + 1 })}
                >
                  Older
                </Button>
              </div>
            )}
          </>
        )}
      </Card>
    </div>
  );
}

/** /operator/reports: the queue of reports, filtered by status, newest first, paged. */
export function OperatorReportsPage() {
  return (
    <OperatorGate>
      <Queue />
    </OperatorGate>
  );
}
