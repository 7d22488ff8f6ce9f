import { Plus } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { toast } from "sonner";
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_MESSAGES,
  type WebhookEventType,
  webhookEndpointInputSchema,
} from "../../../contracts/webhooks";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { isAlreadyReported } from "../../lib/already-reported";
import { ApiError } from "../../lib/api";
import { useAddWebhookEndpoint } from "./webhooks-api";

type Problems = { url?: string; events?: string };

/** The URL of the seller's endpoint and the events it should receive. */
export function AddEndpointForm({ userId }: { userId: string }) {
  const id = useId();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEventType[]>(["sale.completed"]);
  const [problems, setProblems] = useState<Problems>({});
  const { mutate, isPending } = useAddWebhookEndpoint(userId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = webhookEndpointInputSchema.safeParse({ url, events });
    if (!parsed.success) {
      const issueOf = (field: string) =>
        parsed.error.issues.find((issue) => issue.path[0] === field)?.message;
      setProblems({ url: issueOf("url"), events: issueOf("events") });
      return;
    }
    setProblems({});
    mutate(parsed.data, {
      onSuccess: ({ endpoint }) => {
        toast.success(WEBHOOK_MESSAGES.createdTitle, { description: endpoint.url });
        setUrl("");
      },
      onError: (error) => {
        // The server's refusals (an address on a private network, https only, the limit) are about the URL.
        if (error instanceof ApiError && error.status < 500) setProblems({ url: error.message });
        else if (!isAlreadyReported(error)) toast.error("Error", { description: error.message });
      },
    });
  };

  const toggle = (type: WebhookEventType, checked: boolean) =>
    setEvents((current) =>
      checked
        ? WEBHOOK_EVENT_TYPES.filter((t) => t === type || current.includes(t))
        : current.filter((t) => t !== type),
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Add an endpoint</CardTitle>
        <CardDescription>
          We POST a signed JSON message to this URL when something happens in your store.
        </CardDescription>
      </CardHeader>
      <form onSubmit={submit} noValidate className="space-y-5 p-6">
        <div className="space-y-2">
          <Label htmlFor={`${id}-url`}>Endpoint URL</Label>
          <Input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://example.com/webhooks/flatfee"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            {...fieldErrorProps(`${id}-url-error`, problems.url)}
          />
          <FieldError id={`${id}-url-error`} message={problems.url} />
        </div>
        <fieldset className="space-y-2" {...fieldErrorProps(`${id}-events-error`, problems.events)}>
          <legend className="text-sm font-medium text-ink">Events</legend>
          <div className="grid gap-2 sm:grid-cols-3">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <label
                key={type}
                className="flex cursor-pointer items-start gap-3 rounded-xl border border-line bg-white p-3 text-sm has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50/50"
              >
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 accent-brand-600"
                  checked={events.includes(type)}
                  onChange={(event) => toggle(type, event.target.checked)}
                />
                <span className="min-w-0">
                  <span className="block font-mono text-xs font-medium text-ink">{type}</span>
                  <span className="block text-xs text-muted">{WEBHOOK_EVENT_LABELS[type]}</span>
                </span>
              </label>
            ))}
          </div>
          <FieldError id={`${id}-events-error`} message={problems.events} />
        </fieldset>
        <Button type="submit" disabled={isPending}>
          <Plus aria-hidden="true" />
          {isPending ? "Adding..." : "Add endpoint"}
        </Button>
      </form>
    </Card>
  );
}
