import { LoadMoreButton } from "../../components/load-more-button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { formatSaleDate } from "../sales/sale-format";
import { useAuditLog } from "./operator-api";
import { OperatorGate } from "./operator-gate";

/** The append-only record of every operator action: who, what, when, why. */
export function AuditLog({ sellerId, reportId }: { sellerId?: string; reportId?: string }) {
  const log = useAuditLog({ ...(sellerId ? { sellerId } : {}), ...(reportId ? { reportId } : {}) });
  if (log.isPending) return <Spinner label="Loading the audit log" />;
  if (log.isError)
    return <RetryNotice message="Couldn't load the audit log." onRetry={() => void log.refetch()} />;
  const entries = log.data.pages.flatMap((page) => page.entries);
  if (entries.length === 0) return <p className="px-6 py-8 text-sm text-muted">Nothing recorded yet.</p>;
  return (
    <>
      <ol className="divide-y divide-line" aria-label="Audit log entries">
        {entries.map((entry) => (
          <li key={entry.id} className="grid gap-1 px-6 py-4 text-sm sm:grid-cols-[11rem_1fr]">
            <time dateTime={entry.createdAt} className="text-muted">
              {formatSaleDate(entry.createdAt)}
            </time>
            <div className="min-w-0 space-y-1">
              <p className="font-medium text-ink">
                <span className="font-mono text-xs">{entry.action}</span>{" "}
                <span className="font-normal text-muted">by {entry.actorEmail}</span>
              </p>
              <p className="break-words text-ink">{entry.reason}</p>
              {(entry.sellerId || entry.productId || entry.reportId) && (
                <p className="break-all text-xs text-muted">
                  {[
                    entry.sellerId && `seller ${entry.sellerId}`,
                    entry.productId && `product ${entry.productId}`,
                    entry.reportId && `report ${entry.reportId}`,
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </p>
              )}
            </div>
          </li>
        ))}
      </ol>
      {log.hasNextPage && (
        <LoadMoreButton onLoadMore={() => void log.fetchNextPage()} loading={log.isFetchingNextPage} />
      )}
    </>
  );
}

export function AuditLogPage() {
  return (
    <OperatorGate>
      <h1 className="text-2xl font-bold tracking-tight text-ink">Audit log</h1>
      <p className="mt-1 text-sm text-muted">
        Every operator action, with its reason. Entries are never changed or removed.
      </p>
      <Card className="mt-6 overflow-hidden">
        <CardHeader className="sr-only">
          <CardTitle>Entries</CardTitle>
          <CardDescription>Newest first</CardDescription>
        </CardHeader>
        <AuditLog />
      </Card>
    </OperatorGate>
  );
}
