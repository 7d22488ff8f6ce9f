import { Megaphone } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { AUDIENCE_LIMITS, AUDIENCE_MESSAGES } from "../../../contracts/audience";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { Textarea } from "../../components/ui/textarea";
import { isAlreadyReported } from "../../lib/already-reported";
import { formatSaleDate } from "../sales/sale-format";
import { useProductUpdateStatus, useSendBroadcast } from "./audience-api";
import { buyersLabel, updateEmailReach } from "./audience-copy";
import { checkDraft, type DraftErrors } from "./broadcast-form-errors";

/**
 * The product edit page's "Email N buyers about this update": a "New in {product}: ..." email to
 * everyone who bought the product and still has it (not refunded, not unsubscribed), once a day.
 */
export function ProductUpdateCard({ userId, productId }: { userId: string; productId: string }) {
  const id = useId();
  const status = useProductUpdateStatus(userId, productId);
  const send = useSendBroadcast(userId);
  const [open, setOpen] = useState(false);
  const [headline, setHeadline] = useState("");
  const [message, setMessage] = useState("");
  const [errors, setErrors] = useState<DraftErrors>({});

  if (!status.data) return null;
  const { buyers, nextAvailableAt, lastSentAt } = status.data;

  const submit = () => {
    const checked = checkDraft({ kind: "product-update", productId, subject: headline, message });
    if ("errors" in checked) {
      setErrors(checked.errors);
      return;
    }
    send.mutate(checked.draft, {
      onSuccess: (broadcast) => {
        toast.success(AUDIENCE_MESSAGES.sentTitle, { description: broadcast.subject });
        setOpen(false);
        setHeadline("");
        setMessage("");
      },
      onError: (error) => {
        if (!isAlreadyReported(error)) toast.error("Email not sent", { description: error.message });
      },
    });
  };

  return (
    <Card className="mx-auto mt-8 max-w-2xl" role="region" aria-labelledby={`${id}-title`}>
      <CardHeader className="pb-6">
        <CardTitle id={`${id}-title`} className="flex items-center gap-2">
          <Megaphone aria-hidden="true" className="size-5 text-brand-600" />
          Tell your buyers what's new
        </CardTitle>
        <CardDescription>
          {buyers === 0
            ? "No one to email yet: buyers who still have this product show up here."
            : updateEmailReach(buyers)}
          {lastSentAt && ` Last update email: ${formatSaleDate(lastSentAt)}.`}
        </CardDescription>
        {nextAvailableAt && buyers > 0 && (
          <p className="text-sm text-muted">
            One update email per product per day: the next one can go after {formatSaleDate(nextAvailableAt)}.
          </p>
        )}
        {buyers > 0 && !nextAvailableAt && !open && (
          <Button variant="secondary" className="mt-2 self-start" onClick={() => setOpen(true)}>
            Email {buyersLabel(buyers)} about this update
          </Button>
        )}
      </CardHeader>
      {open && !nextAvailableAt && (
        <form
          className="space-y-4 border-t border-line p-6"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-headline`}>What's new</Label>
            <Input
              id={`${id}-headline`}
              value={headline}
              maxLength={AUDIENCE_LIMITS.headlineMaxLength}
              placeholder="Chapter 4 and the bonus worksheets"
              onChange={(event) => {
                setHeadline(event.target.value);
                setErrors((current) => ({ ...current, subject: undefined }));
              }}
              {...fieldErrorProps(`${id}-headline-error`, errors.subject, `${id}-headline-hint`)}
            />
            <p id={`${id}-headline-hint`} className="text-xs text-muted">
              The subject reads "New in {"{product}"}: what you write here".
            </p>
            <FieldError id={`${id}-headline-error`} message={errors.subject} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-message`}>Message</Label>
            <Textarea
              id={`${id}-message`}
              value={message}
              rows={5}
              maxLength={AUDIENCE_LIMITS.messageMaxLength}
              onChange={(event) => {
                setMessage(event.target.value);
                setErrors((current) => ({ ...current, message: undefined }));
              }}
              {...fieldErrorProps(`${id}-message-error`, errors.message)}
            />
            <FieldError id={`${id}-message-error`} message={errors.message} />
          </div>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={send.isPending}>
              {send.isPending ? "Sending..." : "Send update email"}
            </Button>
            <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
