import { Webhook } from "lucide-react";
import { useState } from "react";
import { WEBHOOK_LIMITS, WEBHOOK_MESSAGES, type WebhookEndpoint } from "../../../contracts/webhooks";
import { BackLink } from "../../components/back-link";
import { DeleteConfirmDialog } from "../../components/delete-confirm-dialog";
import { RetryNotice } from "../../components/ui/retry-notice";
import { PageSpinner } from "../../components/ui/spinner";
import { SellerGate } from "../seller/seller-gate";
import { AddEndpointForm } from "./add-endpoint-form";
import { EndpointCard } from "./endpoint-card";
import { useDeleteWebhookEndpoint, useWebhookEndpoints } from "./webhooks-api";

function DeleteEndpointDialog({
  userId,
  endpoint,
  onClose,
}: {
  userId: string;
  endpoint: WebhookEndpoint | null;
  onClose: () => void;
}) {
  return (
    <DeleteConfirmDialog
      target={endpoint}
      mutation={useDeleteWebhookEndpoint(userId)}
      title={WEBHOOK_MESSAGES.deleteConfirmTitle}
      description={WEBHOOK_MESSAGES.deleteConfirm}
      deletedTitle={WEBHOOK_MESSAGES.deletedTitle}
      deletedDescription={(deleted) => deleted.url}
      onClose={onClose}
    >
      <p className="font-mono text-sm text-ink wrap-anywhere">{endpoint?.url}</p>
    </DeleteConfirmDialog>
  );
}

function Webhooks({ userId }: { userId: string }) {
  const endpoints = useWebhookEndpoints(userId);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const list = endpoints.data?.endpoints ?? [];

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <BackLink to="/dashboard">Back to Dashboard</BackLink>
      <div>
        <h1 className="text-3xl font-bold tracking-tight text-ink">{WEBHOOK_MESSAGES.pageTitle}</h1>
        <p className="mt-1 text-sm text-muted">
          Tell your own tools about sales, refunds and sold-out products. Every message is signed (Standard
          Webhooks) and retried for 3 days until your endpoint answers with a 2xx status.
        </p>
      </div>

      {endpoints.isPending ? (
        <PageSpinner label="Loading your webhooks" />
      ) : endpoints.isError ? (
        <RetryNotice message={WEBHOOK_MESSAGES.loadFailed} onRetry={() => void endpoints.refetch()} />
      ) : (
        <>
          {list.length < WEBHOOK_LIMITS.endpointsPerSeller ? (
            <AddEndpointForm userId={userId} />
          ) : (
            <p className="rounded-xl border border-line bg-white p-4 text-sm text-muted">
              {WEBHOOK_MESSAGES.tooManyEndpoints}
            </p>
          )}
          <section aria-labelledby="webhook-endpoints-heading" className="space-y-4">
            <h2 id="webhook-endpoints-heading" className="text-lg font-semibold tracking-tight text-ink">
              Your endpoints
            </h2>
            {list.length === 0 ? (
              <div className="flex flex-col items-center gap-2 rounded-2xl border border-line bg-white px-6 py-12 text-center">
                <Webhook aria-hidden="true" className="size-8 text-muted" />
                <p className="font-medium text-ink">No endpoints yet</p>
                <p className="text-sm text-muted">Add one above to start receiving events.</p>
              </div>
            ) : (
              list.map((endpoint) => (
                <EndpointCard key={endpoint.id} userId={userId} endpoint={endpoint} onDelete={setDeleting} />
              ))
            )}
          </section>
        </>
      )}
      <DeleteEndpointDialog userId={userId} endpoint={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}

/** /dashboard/webhooks: the seller's webhook endpoints and their deliveries, behind the dashboard's gates. */
export function WebhooksPage() {
  return <SellerGate>{({ user }) => <Webhooks userId={user.id} />}</SellerGate>;
}
