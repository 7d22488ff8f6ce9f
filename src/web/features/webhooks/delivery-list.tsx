import { format } from "date-fns";
import { RotateCw } from "lucide-react";
import { toast } from "sonner";
import { countOf } from "../../../contracts/plural";
import { WEBHOOK_MESSAGES, type WebhookDelivery } from "../../../contracts/webhooks";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { isAlreadyReported } from "../../lib/already-reported";
import { useResendDelivery, useWebhookDeliveries } from "./webhooks-api";

const STATUS_TONES = { succeeded: "success", failed: "danger", pending: "warning" } as const;
const STATUS_LABELS = { succeeded: "Delivered", failed: "Failed", pending: "Retrying" } as const;
const when = (iso: string) => format(new Date(iso), "MMM d, HH:mm:ss");

export function DeliveryStatus({
  status,
  attempts,
}: {
  status: WebhookDelivery["status"];
  attempts: number;
}) {
  const label = status === "pending" && attempts === 0 ? "Queued" : STATUS_LABELS[status];
  return <Badge tone={STATUS_TONES[status]}>{label}</Badge>;
}

function DeliveryRow({ userId, delivery }: { userId: string; delivery: WebhookDelivery }) {
  const { mutate, isPending } = useResendDelivery(userId);
  const resend = () =>
    mutate(delivery.id, {
      onSuccess: () => toast.success(WEBHOOK_MESSAGES.resentTitle, { description: delivery.eventType }),
      onError: (error) => {
        if (!isAlreadyReported(error)) toast.error("Error", { description: error.message });
      },
    });
  return (
    <li className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-sm text-ink">{delivery.eventType}</span>
          <DeliveryStatus status={delivery.status} attempts={delivery.attempts} />
        </div>
        <p className="text-xs text-muted wrap-anywhere">
          {countOf(delivery.attempts, "attempt")}
          {delivery.lastResponseStatus !== null && <> · Response {delivery.lastResponseStatus}</>}
          {delivery.lastAttemptAt && <> · Last tried {when(delivery.lastAttemptAt)}</>}
          {delivery.nextAttemptAt && delivery.attempts > 0 && <> · Next try {when(delivery.nextAttemptAt)}</>}
        </p>
        {delivery.lastError && <p className="text-xs text-red-700 wrap-anywhere">{delivery.lastError}</p>}
      </div>
      <Button
        variant="secondary"
        size="sm"
        onClick={resend}
        disabled={isPending}
        className="self-start sm:self-auto"
      >
        <RotateCw aria-hidden="true" />
        {isPending ? "Resending..." : "Resend"}
        <span className="sr-only">{` ${delivery.eventType} of ${when(delivery.createdAt)}`}</span>
      </Button>
    </li>
  );
}

/** The endpoint's newest deliveries: what was sent, how it went, when it is tried again. */
export function DeliveryList({ userId, endpointId }: { userId: string; endpointId: string }) {
  const { data, isPending, isError, refetch } = useWebhookDeliveries(userId, endpointId);
  if (isPending) {
    return (
      <div className="flex justify-center p-6">
        <Spinner label="Loading deliveries" />
      </div>
    );
  }
  if (isError) {
    return (
      <RetryNotice
        className="m-4"
        message={WEBHOOK_MESSAGES.deliveriesLoadFailed}
        onRetry={() => void refetch()}
      />
    );
  }
  if (data.deliveries.length === 0) {
    return <p className="px-4 py-6 text-center text-sm text-muted">No deliveries yet.</p>;
  }
  return (
    <ul aria-label="Deliveries" className="divide-y divide-line">
      {data.deliveries.map((delivery) => (
        <DeliveryRow key={delivery.id} userId={userId} delivery={delivery} />
      ))}
    </ul>
  );
}
