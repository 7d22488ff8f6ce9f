import { format } from "date-fns";
import { Copy, KeyRound, Trash2 } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { toast } from "sonner";
import {
  API_KEY_LIMITS,
  API_KEY_MESSAGES,
  type ApiKey,
  type CreatedApiKey,
  createApiKeySchema,
} from "../../../contracts/api-keys";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { RetryNotice } from "../../components/ui/retry-notice";
import { isAlreadyReported } from "../../lib/already-reported";
import { copyToClipboard } from "../../lib/clipboard";
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from "./api-keys-api";
import { ApiRequestLog } from "./api-request-log";

const when = (iso: string) => format(new Date(iso), "MMM d, yyyy HH:mm");

/** The whole key, right after it was made: the only time it is shown. */
function NewKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  return (
    <div role="status" className="space-y-3 rounded-xl border border-brand-200 bg-brand-50 p-4">
      <p className="text-sm font-medium text-ink">
        Your new key “<span className="wrap-anywhere">{created.key.name}</span>”
      </p>
      <p className="text-sm text-ink">{API_KEY_MESSAGES.copyNow}</p>
      <code className="block rounded-md bg-white px-3 py-2 font-mono text-sm break-all text-ink ring-1 ring-line">
        {created.secret}
      </code>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => void copyToClipboard(created.secret, API_KEY_MESSAGES.copied)}>
          <Copy aria-hidden="true" />
          Copy key
        </Button>
        <Button size="sm" variant="secondary" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: () => void }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div className="min-w-0 space-y-0.5">
        <p className="font-medium wrap-anywhere text-ink">{apiKey.name}</p>
        <p className="font-mono text-xs wrap-anywhere text-muted">{apiKey.prefix}…</p>
        <p className="text-xs text-muted">
          Created {when(apiKey.createdAt)}
          <span aria-hidden="true"> · </span>
          <span className="sr-only">, </span>
          {apiKey.lastUsedAt ? `Last used ${when(apiKey.lastUsedAt)}` : "Never used"}
        </p>
      </div>
      <Button
        variant="secondary"
        size="sm"
        className="text-red-700"
        onClick={onRevoke}
        aria-label={`Revoke ${apiKey.name}`}
      >
        <Trash2 aria-hidden="true" />
        Revoke
      </Button>
    </li>
  );
}

function CreateKeyForm({
  userId,
  atLimit,
  onCreated,
}: {
  userId: string;
  atLimit: boolean;
  onCreated: (created: CreatedApiKey) => void;
}) {
  const fieldId = useId();
  const errorId = useId();
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string | undefined>();
  const { mutate: create, isPending } = useCreateApiKey(userId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = createApiKeySchema.safeParse({ name });
    if (!checked.success) {
      setProblem(checked.error.issues[0]?.message);
      return;
    }
    setProblem(undefined);
    create(checked.data.name, {
      onSuccess: (created) => {
        setName("");
        onCreated(created);
        toast.success(API_KEY_MESSAGES.createdTitle, { description: API_KEY_MESSAGES.copyNow });
      },
      onError: (error) => {
        if (isAlreadyReported(error)) return;
        setProblem(error.message);
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-2">
      <Label htmlFor={fieldId}>Key name</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={fieldId}
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="e.g. Zapier, my Discord bot"
          maxLength={API_KEY_LIMITS.nameMax + 1}
          disabled={atLimit}
          {...fieldErrorProps(errorId, problem)}
        />
        <Button type="submit" disabled={isPending || atLimit} className="sm:w-auto">
          <KeyRound aria-hidden="true" />
          {isPending ? "Creating..." : "Create key"}
        </Button>
      </div>
      <FieldError id={errorId} message={problem} />
      {atLimit && <p className="text-sm text-muted">{API_KEY_MESSAGES.tooMany}</p>}
    </form>
  );
}

/**
 * Settings → API keys: make a key for the seller's own tools (shown once), see when each was last
 * used, revoke one, and the latest calls made with them.
 */
export function ApiKeysSection({ userId }: { userId: string }) {
  const { data, isPending, isError, refetch } = useApiKeys(userId);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const { mutate: revoke, isPending: revokeBusy } = useRevokeApiKey(userId);

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke(revoking.id, {
      onSuccess: () => {
        if (created?.key.id === revoking.id) setCreated(null);
        toast.success(API_KEY_MESSAGES.revokedTitle, { description: API_KEY_MESSAGES.revoked });
      },
      onError: (error) => {
        if (!isAlreadyReported(error)) toast.error("Couldn't revoke the key", { description: error.message });
      },
      onSettled: () => setRevoking(null),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>API keys</CardTitle>
        <CardDescription>
          Let your own tools read your products and sales, refund a sale or reset its downloads through the
          Flatfee API. A key acts for your store only; keep it secret like a password.{" "}
          <a
            href="/api/v1/openapi.json"
            target="_blank"
            rel="noreferrer"
            className="font-medium text-brand-700 underline underline-offset-4"
          >
            API reference (OpenAPI)
          </a>
        </CardDescription>
      </CardHeader>
      <div className="space-y-5 p-6">
        {created && <NewKey created={created} onDone={() => setCreated(null)} />}
        {isPending ? (
          <p className="text-sm text-muted">Loading your API keys…</p>
        ) : isError ? (
          <RetryNotice message="We couldn't load your API keys." onRetry={() => void refetch()} />
        ) : (
          <>
            <CreateKeyForm
              userId={userId}
              atLimit={data.keys.length >= data.maxKeys}
              onCreated={setCreated}
            />
            {data.keys.length === 0 ? (
              <p className="text-sm text-muted">No API keys yet.</p>
            ) : (
              <ul aria-label="Your API keys" className="divide-y divide-line border-y border-line">
                {data.keys.map((apiKey) => (
                  <KeyRow key={apiKey.id} apiKey={apiKey} onRevoke={() => setRevoking(apiKey)} />
                ))}
              </ul>
            )}
            <ApiRequestLog userId={userId} />
          </>
        )}
      </div>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ""}”?`}
        description={API_KEY_MESSAGES.revokeConfirm}
        confirmLabel="Revoke key"
        busyLabel="Revoking..."
        busy={revokeBusy}
        onConfirm={confirmRevoke}
        onClose={() => setRevoking(null)}
      />
    </Card>
  );
}
