import { useId, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { ACTION_LABELS, type QueuedAppeal } from "../../../contracts/enforcement";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Label } from "../../components/ui/label";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { Textarea } from "../../components/ui/textarea";
import { ApiError } from "../../lib/api";
import { formatSaleDate } from "../sales/sale-format";
import { useAnswerAppeal, useAppealQueue } from "./enforcement-api";
import { OperatorGate } from "./operator-gate";

function AppealCard({ appeal }: { appeal: QueuedAppeal }) {
  const id = useId();
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string>();
  const answer = useAnswerAppeal();
  const send = (outcome: "reinstate" | "uphold") => {
    if (!reason.trim()) return setProblem("Say why: every operator action records its reason.");
    setProblem(undefined);
    answer.mutate(
      { appealId: appeal.id, answer: { outcome, reason } },
      {
        onSuccess: () =>
          toast.success(
            outcome === "reinstate"
              ? "Reinstated. The seller has been emailed."
              : "Upheld. The seller has been emailed.",
          ),
        onError: (error) =>
          setProblem(error instanceof ApiError ? error.message : "Couldn't answer the appeal."),
      },
    );
  };
  const { action } = appeal;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2 text-base">
          <Badge tone="danger">{ACTION_LABELS[action.kind]}</Badge>
          {action.productTitle && <span className="min-w-0 break-words">{action.productTitle}</span>}
        </CardTitle>
        <CardDescription className="break-words">
          <Link
            to={`/operator/sellers/${encodeURIComponent(appeal.sellerId)}`}
            className="font-medium text-brand-700 underline-offset-4 hover:underline"
          >
            {appeal.storeName ?? "No store name"}
          </Link>{" "}
          · <span className="break-all">{appeal.sellerEmail}</span> · appealed{" "}
          {formatSaleDate(appeal.createdAt)}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        <div>
          <p className="text-xs font-medium uppercase tracking-wide text-muted">Action's reason</p>
          <p className="mt-1 break-words text-ink">{action.reason}</p>
          <p className="mt-1 text-xs text-muted">
            {formatSaleDate(action.createdAt)}
            {action.reportId ? ` · report ${action.reportId}` : ""}
          </p>
        </div>
        <div>
          <p className="text-xs font-medium uppercase tracking-wide text-muted">The seller's appeal</p>
          <p className="mt-1 break-words whitespace-pre-line text-ink">{appeal.body}</p>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-reason`}>Your answer (the seller reads it)</Label>
          <Textarea
            id={`${id}-reason`}
            rows={2}
            value={reason}
            maxLength={2000}
            onChange={(event) => setReason(event.target.value)}
            {...fieldErrorProps(`${id}-problem`, problem)}
          />
          <FieldError id={`${id}-problem`} message={problem} />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="button" onClick={() => send("reinstate")} disabled={answer.isPending}>
            Reinstate
          </Button>
          <Button
            type="button"
            variant="secondary"
            onClick={() => send("uphold")}
            disabled={answer.isPending}
          >
            Uphold
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function Queue() {
  const queue = useAppealQueue();
  if (queue.isPending) return <Spinner label="Loading the appeals" />;
  if (queue.isError)
    return <RetryNotice message="Couldn't load the appeals." onRetry={() => void queue.refetch()} />;
  if (queue.data.appeals.length === 0) return <p className="mt-6 text-sm text-muted">No open appeals.</p>;
  return (
    <ul className="mt-6 space-y-4" aria-label="Open appeals">
      {queue.data.appeals.map((appeal) => (
        <li key={appeal.id}>
          <AppealCard appeal={appeal} />
        </li>
      ))}
    </ul>
  );
}

/** /operator/appeals: sellers' open appeals, oldest first; reinstate or uphold, with a reason. */
export function AppealsPage() {
  return (
    <OperatorGate>
      <h1 className="text-2xl font-bold tracking-tight text-ink">Appeals</h1>
      <p className="mt-1 text-sm text-muted">
        Open appeals, oldest first. Both answers are audited and emailed.
      </p>
      <Queue />
    </OperatorGate>
  );
}
