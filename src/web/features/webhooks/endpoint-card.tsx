import { Copy, Eye, EyeOff, KeyRound, Send, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { WEBHOOK_MESSAGES, type WebhookEndpoint, type WebhookEventType } from "../../../contracts/webhooks";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { fieldClasses } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { isAlreadyReported } from "../../lib/already-reported";
import { copyToClipboard } from "../../lib/clipboard";
import { cn } from "../../lib/utils";
import { DeliveryList } from "./delivery-list";
import { useRevealSecret, useRotateSecret, useSendExampleEvent } from "./webhooks-api";

const showError = (error: Error) => {
  if (!isAlreadyReported(error)) toast.error("Error", { description: error.message });
};

/** The signing secret, hidden until asked for (it is read from the server only then), with copy and rotate. */
function SigningSecret({ endpointId }: { endpointId: string }) {
  const [secret, setSecret] = useState<string | null>(null);
  const [visible, setVisible] = useState(false);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const reveal = useRevealSecret();
  const rotate = useRotateSecret();

  const withSecret = (then: (value: string) => void) => {
    if (secret) return then(secret);
    reveal.mutate(endpointId, {
      onSuccess: ({ secret: value }) => {
        setSecret(value);
        then(value);
      },
      onError: showError,
    });
  };
  const rotateNow = () =>
    rotate.mutate(endpointId, {
      onSuccess: ({ secret: value }) => {
        setSecret(value);
        setVisible(true);
        setConfirmRotate(false);
        toast.success(WEBHOOK_MESSAGES.rotatedTitle, { description: WEBHOOK_MESSAGES.rotated });
      },
      onError: showError,
    });

  return (
    <div className="space-y-2">
      <p className="text-sm font-medium text-ink">Signing secret</p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code className="min-w-0 flex-1 rounded-lg bg-slate-100 px-3 py-2 font-mono text-xs text-ink wrap-anywhere">
          {visible && secret ? (
            secret
          ) : (
            <>
              <span aria-hidden="true">whsec_••••••••••••••••••••••••</span>
              <span className="sr-only">Hidden</span>
            </>
          )}
        </code>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            size="sm"
            disabled={reveal.isPending}
            onClick={() => (visible ? setVisible(false) : withSecret(() => setVisible(true)))}
          >
            {visible ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
            {visible ? "Hide" : "Reveal"}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={reveal.isPending}
            onClick={() => withSecret((value) => void copyToClipboard(value, "Signing secret copied"))}
          >
            <Copy aria-hidden="true" />
            Copy
          </Button>
          <Button variant="secondary" size="sm" onClick={() => setConfirmRotate(true)}>
            <KeyRound aria-hidden="true" />
            Rotate
          </Button>
        </div>
      </div>
      <ConfirmDialog
        open={confirmRotate}
        title="Rotate the signing secret"
        description="A new secret replaces this one at once: update your receiver, or it will refuse the next deliveries."
        confirmLabel="Rotate"
        busyLabel="Rotating..."
        busy={rotate.isPending}
        onConfirm={rotateNow}
        onClose={() => setConfirmRotate(false)}
      />
    </div>
  );
}

function SendExample({ userId, endpoint }: { userId: string; endpoint: WebhookEndpoint }) {
  const id = useId();
  const [eventType, setEventType] = useState<WebhookEventType>(endpoint.events[0] ?? "sale.completed");
  const { mutate, isPending } = useSendExampleEvent(userId);
  const send = () =>
    mutate(
      { endpointId: endpoint.id, eventType },
      {
        onSuccess: () => toast.success(WEBHOOK_MESSAGES.exampleSentTitle, { description: eventType }),
        onError: showError,
      },
    );
  return (
    <div className="space-y-2">
      <Label htmlFor={`${id}-event`}>Send an example event</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <select
          id={`${id}-event`}
          className={cn(fieldClasses, "h-10 sm:max-w-xs")}
          value={eventType}
          onChange={(event) => setEventType(event.target.value as WebhookEventType)}
        >
          {endpoint.events.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
        <Button variant="secondary" onClick={send} disabled={isPending} className="self-start sm:self-auto">
          <Send aria-hidden="true" />
          {isPending ? "Sending..." : "Send example"}
        </Button>
      </div>
    </div>
  );
}

/** One endpoint: where it points, what it receives, its secret, a test send and its deliveries. */
export function EndpointCard({
  userId,
  endpoint,
  onDelete,
}: {
  userId: string;
  endpoint: WebhookEndpoint;
  onDelete: (endpoint: WebhookEndpoint) => void;
}) {
  return (
    <Card>
      <div className="space-y-5 p-6">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0 space-y-2">
            <h3 className="font-mono text-sm font-semibold text-ink wrap-anywhere">{endpoint.url}</h3>
            <ul aria-label="Events" className="flex flex-wrap gap-1.5">
              {endpoint.events.map((type) => (
                <li key={type}>
                  <Badge tone="brand">{type}</Badge>
                </li>
              ))}
            </ul>
          </div>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => onDelete(endpoint)}
            className="self-start text-red-700"
          >
            <Trash2 aria-hidden="true" />
            Delete
            <span className="sr-only">{` endpoint ${endpoint.url}`}</span>
          </Button>
        </div>
        <SigningSecret endpointId={endpoint.id} />
        <SendExample userId={userId} endpoint={endpoint} />
      </div>
      <section aria-label={`Deliveries to ${endpoint.url}`} className="border-t border-line">
        <h4 className="px-4 pt-4 text-sm font-medium text-ink sm:px-6">Recent deliveries</h4>
        <div className="sm:px-2">
          <DeliveryList userId={userId} endpointId={endpoint.id} />
        </div>
      </section>
    </Card>
  );
}
