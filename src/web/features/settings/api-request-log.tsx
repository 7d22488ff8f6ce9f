import { format } from "date-fns";
import { useState } from "react";
import { API_KEY_LIMITS, type ApiRequestLogEntry } from "../../../contracts/api-keys";
import { Badge } from "../../components/ui/badge";
import { RetryNotice } from "../../components/ui/retry-notice";
import { useApiRequests } from "./api-keys-api";

const toneOf = (status: number) => (status < 400 ? "success" : status < 500 ? "warning" : "danger");

function RequestRow({ entry }: { entry: ApiRequestLogEntry }) {
  return (
    <li className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-2 text-sm">
      <Badge tone={toneOf(entry.status)}>{entry.status}</Badge>
      <span className="min-w-0 font-mono text-xs wrap-anywhere text-ink">
        {entry.method} {entry.path}
      </span>
      <span className="text-xs text-muted">
        {format(new Date(entry.createdAt), "MMM d, HH:mm:ss")}
        <span aria-hidden="true"> · </span>
        <span className="sr-only">, with </span>
        <span className="wrap-anywhere">{entry.keyName}</span>
      </span>
    </li>
  );
}

/** The latest calls made with the seller's keys, read when opened (so it is fresh each time). */
export function ApiRequestLog({ userId }: { userId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)} className="group">
      <summary className="cursor-pointer rounded text-sm font-medium text-ink outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
        Recent calls
      </summary>
      {open && <RequestList userId={userId} />}
    </details>
  );
}

function RequestList({ userId }: { userId: string }) {
  const { data, isPending, isError, refetch } = useApiRequests(userId);
  if (isPending) return <p className="mt-2 text-sm text-muted">Loading…</p>;
  if (isError)
    return (
      <RetryNotice
        className="mt-2"
        message="We couldn't load your recent calls."
        onRetry={() => void refetch()}
      />
    );
  if (data.requests.length === 0)
    return (
      <p className="mt-2 text-sm text-muted">No calls in the last {API_KEY_LIMITS.requestLogDays} days.</p>
    );
  return (
    <>
      <p className="mt-2 text-xs text-muted">
        The latest {API_KEY_LIMITS.requestLogShown} calls, newest first; calls are kept{" "}
        {API_KEY_LIMITS.requestLogDays} days.
      </p>
      <ul aria-label="Recent API calls" className="mt-1 divide-y divide-line">
        {data.requests.map((entry) => (
          <RequestRow key={entry.id} entry={entry} />
        ))}
      </ul>
    </>
  );
}
