import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { format } from "date-fns";
import { Archive, Download } from "lucide-react";
import { toast } from "sonner";
import {
  STORE_EXPORT_MESSAGES,
  STORE_EXPORT_RULES,
  type StoreExport,
  type StoreExportState,
  storeExportStateSchema,
} from "../../../contracts/store-export";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Progress } from "../../components/ui/progress";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { isAlreadyReported } from "../../lib/already-reported";
import { api } from "../../lib/api";
import { formatBytes } from "../../lib/format-bytes";
import { sellerKeys } from "../../lib/seller-status";

const PATH = "/api/store-export";
const exportKey = (userId: string) => [...sellerKeys.all(userId), "store-export"] as const;

export const STORE_EXPORT_NOTE = `One ZIP file of your whole store: products with their files, covers and prices, customers and their email consent, orders and refunds, license keys, memberships, posts, invoices, discount codes, webhooks (without their secrets) and analytics. It is built in the background; we email you a link that works for ${STORE_EXPORT_RULES.keepDays} days.`;

const when = (iso: string) => format(new Date(iso), "MMMM d, yyyy 'at' h:mm a");
const isBuilding = (latest: StoreExport | null | undefined) =>
  latest?.status === "queued" || latest?.status === "building";

/** Settings → Export my store: start an export, watch it build, download it (docs/export-format.md). */
export function StoreExportCard({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const state = useQuery({
    queryKey: exportKey(userId),
    queryFn: ({ signal }) => api(PATH, { schema: storeExportStateSchema, signal }),
    // Asked every 2 s while it builds; once ready or failed, not again.
    refetchInterval: (query) => (isBuilding(query.state.data?.latest) ? STORE_EXPORT_RULES.pollMs : false),
  });
  const start = useMutation({
    mutationFn: () => api(PATH, { method: "POST", schema: storeExportStateSchema }),
    onSuccess: (started) => {
      queryClient.setQueryData(exportKey(userId), started);
      toast.success(STORE_EXPORT_MESSAGES.started);
    },
    onError: (error) => {
      if (!isAlreadyReported(error)) toast.error(error.message);
      void state.refetch();
    },
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Export my store</CardTitle>
        <CardDescription>{STORE_EXPORT_NOTE}</CardDescription>
      </CardHeader>
      <div className="px-6 pt-4 pb-6">
        {state.isPending ? (
          <Spinner label="Loading" />
        ) : state.isError ? (
          <RetryNotice message={STORE_EXPORT_MESSAGES.loadFailed} onRetry={() => void state.refetch()} />
        ) : (
          <ExportState state={state.data} starting={start.isPending} onStart={() => start.mutate()} />
        )}
      </div>
    </Card>
  );
}

/** What the card shows for the newest export (exported for its tests). */
export function ExportState({
  state,
  starting,
  onStart,
}: {
  state: StoreExportState;
  starting: boolean;
  onStart: () => void;
}) {
  const { latest } = state;
  if (latest && isBuilding(latest)) return <Building latest={latest} />;
  const startButton = (
    <StartButton
      again={latest !== null}
      nextAllowedAt={state.nextAllowedAt}
      starting={starting}
      onStart={onStart}
    />
  );
  if (latest?.status === "ready") {
    return (
      <div className="space-y-4">
        <Ready latest={latest} />
        {startButton}
      </div>
    );
  }
  return (
    <div className="space-y-4">
      {latest?.status === "failed" && (
        <p role="alert" className="rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          {latest.error ?? STORE_EXPORT_MESSAGES.failed}
        </p>
      )}
      {latest?.status === "expired" && latest.expiresAt && (
        <p className="text-sm text-muted">
          Your last export, made {when(latest.createdAt)}, expired on {when(latest.expiresAt)}.
        </p>
      )}
      {startButton}
    </div>
  );
}

function StartButton({
  again,
  nextAllowedAt,
  starting,
  onStart,
}: {
  again: boolean;
  nextAllowedAt: string | null;
  starting: boolean;
  onStart: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <Button
        variant={again ? "secondary" : "primary"}
        onClick={onStart}
        disabled={starting || nextAllowedAt !== null}
      >
        <Archive aria-hidden="true" />
        {starting ? "Starting…" : again ? "Export again" : "Export my store"}
      </Button>
      {nextAllowedAt && (
        <p className="text-sm text-muted">
          You can export {STORE_EXPORT_RULES.perDay} times in 24 hours: the next one from{" "}
          {when(nextAllowedAt)}.
        </p>
      )}
    </div>
  );
}

function Building({ latest }: { latest: StoreExport }) {
  const { bytesDone, bytesTotal, recordsDone } = latest.progress;
  const percent = bytesTotal > 0 ? Math.min(100, Math.round((bytesDone / bytesTotal) * 100)) : 0;
  const queued = latest.status === "queued";
  return (
    <div className="space-y-2" aria-live="polite">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 text-sm">
        <p className="font-medium text-ink">{queued ? "Waiting to start…" : "Building your archive…"}</p>
        {!queued && <p className="text-muted tabular-nums">{percent}%</p>}
      </div>
      <Progress value={queued ? 0 : percent} label="Store export progress" />
      <p className="text-xs text-muted tabular-nums">
        {queued
          ? "It starts in a moment. You can leave this page: we'll email you when it's ready."
          : `${formatBytes(bytesDone)} of ${formatBytes(bytesTotal)} of files · ${recordsDone.toLocaleString("en-US")} records. You can leave this page: we'll email you when it's ready.`}
      </p>
    </div>
  );
}

function Ready({ latest }: { latest: StoreExport }) {
  return (
    <div className="space-y-3 rounded-xl border border-emerald-200 bg-emerald-50 p-4" role="status">
      <p className="text-sm font-medium text-ink">
        Your archive is ready{latest.sizeBytes !== null ? ` (${formatBytes(latest.sizeBytes)})` : ""}.
      </p>
      {latest.downloadUrl && (
        <Button asChild>
          <a href={latest.downloadUrl} download>
            <Download aria-hidden="true" />
            Download archive
          </a>
        </Button>
      )}
      {latest.expiresAt && (
        <p className="text-xs text-muted">
          The link works until {when(latest.expiresAt)}; then the archive is deleted. Anyone with the link can
          download it.
        </p>
      )}
    </div>
  );
}
