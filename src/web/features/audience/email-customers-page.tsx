import { Inbox, Send } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import {
  AUDIENCE_LIMITS,
  AUDIENCE_MESSAGES,
  type Broadcast,
  type BroadcastPreview,
} from "../../../contracts/audience";
import { countOf } from "../../../contracts/plural";
import { BackLink } from "../../components/back-link";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { fieldClasses, Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { RadioGroup, RadioGroupItem } from "../../components/ui/radio-group";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { Textarea } from "../../components/ui/textarea";
import { isAlreadyReported } from "../../lib/already-reported";
import { cn } from "../../lib/utils";
import { formatSaleDate } from "../sales/sale-format";
import { SellerGate } from "../seller/seller-gate";
import { useBroadcasts, useEmailProducts, usePreviewBroadcast, useSendBroadcast } from "./audience-api";
import { customersLabel } from "./audience-copy";
import { checkDraft, type DraftErrors, type DraftField } from "./broadcast-form-errors";

function SentList({ broadcasts }: { broadcasts: Broadcast[] }) {
  if (broadcasts.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 border-t border-line px-6 py-10 text-center">
        <Inbox aria-hidden="true" className="size-8 text-muted" />
        <p className="font-medium text-ink">Nothing sent yet</p>
      </div>
    );
  }
  return (
    <ul className="divide-y divide-line border-t border-line">
      {broadcasts.map((broadcast) => (
        <li key={broadcast.id} className="flex flex-col gap-1 px-6 py-3 text-sm sm:flex-row sm:items-center">
          <div className="min-w-0 flex-1">
            <p className="truncate font-medium text-ink" title={broadcast.subject}>
              {broadcast.subject}
            </p>
            <p className="truncate text-muted">
              To {broadcast.productTitle ? `buyers of ${broadcast.productTitle}` : "all customers"} ·{" "}
              {formatSaleDate(broadcast.createdAt)}
            </p>
          </div>
          <div className="flex shrink-0 items-center gap-3">
            <span className="text-muted tabular-nums">{countOf(broadcast.recipients, "recipient")}</span>
            {broadcast.status === "sent" ? (
              <Badge tone="success">Sent</Badge>
            ) : (
              <Badge tone="warning">Sending</Badge>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The rendered email, as buyers get it, in a frame with no script and no way out. */
function PreviewPane({ preview }: { preview: BroadcastPreview }) {
  return (
    <div className="space-y-3 border-t border-line p-6">
      <p role="status" className="text-sm font-medium text-ink">
        This email goes to {customersLabel(preview.recipients)}.
      </p>
      <iframe
        title="Email preview"
        sandbox=""
        srcDoc={preview.html}
        className="h-[28rem] w-full rounded-lg border border-line bg-slate-100"
      />
    </div>
  );
}

function EmailForm({ userId, remaining }: { userId: string; remaining: number }) {
  const id = useId();
  const products = useEmailProducts(userId);
  const previewing = usePreviewBroadcast();
  const sending = useSendBroadcast(userId);
  const [audience, setAudience] = useState<"all" | "product">("all");
  const [productId, setProductId] = useState("");
  const [subject, setSubject] = useState("");
  const [message, setMessage] = useState("");
  const [errors, setErrors] = useState<DraftErrors>({});
  const [preview, setPreview] = useState<BroadcastPreview | null>(null);

  const draft = {
    kind: "message" as const,
    audience,
    ...(audience === "product" ? { productId } : {}),
    subject,
    message,
  };
  /** Any change makes the preview stale: what is sent is always what was last previewed. */
  const changed = (field: DraftField | null) => {
    setPreview(null);
    if (field) setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const checked = () => {
    const result = checkDraft(draft);
    if ("errors" in result) {
      setErrors(result.errors);
      return null;
    }
    return result.draft;
  };
  const showPreview = () => {
    const valid = checked();
    if (!valid) return;
    previewing.mutate(valid, {
      onSuccess: setPreview,
      onError: (error) => {
        if (!isAlreadyReported(error)) toast.error("Preview failed", { description: error.message });
      },
    });
  };
  const send = () => {
    const valid = checked();
    if (!valid) return;
    sending.mutate(valid, {
      onSuccess: (broadcast) => {
        toast.success(AUDIENCE_MESSAGES.sentTitle, { description: broadcast.subject });
        setSubject("");
        setMessage("");
        setPreview(null);
      },
      onError: (error) => {
        if (!isAlreadyReported(error)) toast.error("Email not sent", { description: error.message });
      },
    });
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        showPreview();
      }}
    >
      <div className="space-y-5 p-6 pt-4">
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-ink">To</legend>
          <RadioGroup
            value={audience}
            onValueChange={(value) => {
              setAudience(value === "product" ? "product" : "all");
              changed("productId");
            }}
          >
            <div className="flex items-center gap-2">
              <RadioGroupItem value="all" id={`${id}-all`} />
              <Label htmlFor={`${id}-all`}>All customers</Label>
            </div>
            <div className="flex items-center gap-2">
              <RadioGroupItem value="product" id={`${id}-product`} />
              <Label htmlFor={`${id}-product`}>Buyers of one product</Label>
            </div>
          </RadioGroup>
          <p className="text-xs text-muted">Refunded buyers and those who unsubscribed are left out.</p>
        </fieldset>
        {audience === "product" && (
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-product-select`}>Product</Label>
            <select
              id={`${id}-product-select`}
              value={productId}
              onChange={(event) => {
                setProductId(event.target.value);
                changed("productId");
              }}
              className={cn(fieldClasses, "h-10")}
              {...fieldErrorProps(`${id}-product-error`, errors.productId)}
            >
              <option value="">Choose a product</option>
              {(products.data?.products ?? []).map((product) => (
                <option key={product.id} value={product.id}>
                  {product.title}
                </option>
              ))}
            </select>
            <FieldError id={`${id}-product-error`} message={errors.productId} />
          </div>
        )}
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-subject`}>Subject</Label>
          <Input
            id={`${id}-subject`}
            value={subject}
            maxLength={AUDIENCE_LIMITS.subjectMaxLength}
            onChange={(event) => {
              setSubject(event.target.value);
              changed("subject");
            }}
            {...fieldErrorProps(`${id}-subject-error`, errors.subject)}
          />
          <FieldError id={`${id}-subject-error`} message={errors.subject} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-message`}>Message</Label>
          <Textarea
            id={`${id}-message`}
            rows={8}
            value={message}
            maxLength={AUDIENCE_LIMITS.messageMaxLength}
            onChange={(event) => {
              setMessage(event.target.value);
              changed("message");
            }}
            {...fieldErrorProps(`${id}-message-error`, errors.message, `${id}-message-hint`)}
          />
          <p id={`${id}-message-hint`} className="text-xs text-muted">
            Plain text: links you paste (https://...) become links. Each email ends with an unsubscribe link.
          </p>
          <FieldError id={`${id}-message-error`} message={errors.message} />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="secondary" disabled={previewing.isPending}>
            {previewing.isPending ? "Preparing preview..." : "Preview"}
          </Button>
          {preview && (
            <Button
              type="button"
              onClick={send}
              disabled={sending.isPending || remaining === 0 || preview.recipients === 0}
            >
              <Send aria-hidden="true" />
              {sending.isPending ? "Sending..." : `Send to ${customersLabel(preview.recipients)}`}
            </Button>
          )}
        </div>
      </div>
      {preview && <PreviewPane preview={preview} />}
    </form>
  );
}

function EmailCustomers({ userId }: { userId: string }) {
  const broadcasts = useBroadcasts(userId);
  const remaining = broadcasts.data?.remainingToday ?? AUDIENCE_LIMITS.broadcastsPerDay;
  const nextAt = broadcasts.data?.nextAvailableAt;

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <BackLink to="/dashboard/customers">Back to Customers</BackLink>
      <div>
        <h1 className="text-3xl font-bold tracking-tight text-ink">{AUDIENCE_MESSAGES.emailTitle}</h1>
        <p className="mt-1 text-sm text-muted">
          A short message to everyone who bought from you, or to the buyers of one product. Preview it, then
          send.
        </p>
      </div>

      <Card>
        <CardHeader className="pb-0">
          <CardTitle>New email</CardTitle>
          <CardDescription>
            {remaining === 0 && nextAt
              ? `You have sent ${AUDIENCE_LIMITS.broadcastsPerDay} emails in the last 24 hours. The next one can go after ${formatSaleDate(nextAt)}.`
              : `${remaining} of ${AUDIENCE_LIMITS.broadcastsPerDay} emails left for the next 24 hours.`}
          </CardDescription>
        </CardHeader>
        <EmailForm userId={userId} remaining={remaining} />
      </Card>

      <Card role="region" aria-label="Sent emails">
        <CardHeader className="pb-4">
          <CardTitle>Sent emails</CardTitle>
          <CardDescription>Recipients count the buyers each email was queued for.</CardDescription>
        </CardHeader>
        {broadcasts.isPending ? (
          <div className="flex justify-center py-10">
            <Spinner label="Loading sent emails" />
          </div>
        ) : broadcasts.isError ? (
          <RetryNotice
            className="m-6"
            message="Error loading sent emails"
            onRetry={() => void broadcasts.refetch()}
          />
        ) : (
          <SentList broadcasts={broadcasts.data.broadcasts} />
        )}
      </Card>
    </div>
  );
}

/** /dashboard/customers/email: write, preview and send an email to buyers; the sent list. */
export function EmailCustomersPage() {
  return <SellerGate>{({ user }) => <EmailCustomers userId={user.id} />}</SellerGate>;
}
