import { FileText, ShieldAlert } from "lucide-react";
import { useId, useState } from "react";
import { useParams } from "react-router";
import { toast } from "sonner";
import {
  DISPUTE_EVIDENCE_FIELDS,
  DISPUTE_EVIDENCE_LABELS,
  DISPUTE_LIMITS,
  DISPUTE_MESSAGES,
  type DisputeEvidence,
  type DisputeView,
  disputeReasonLabel,
  disputeStatusLabel,
} from "../../../contracts/disputes";
import { formatMoney } from "../../../contracts/money";
import { BackLink } from "../../components/back-link";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { RetryNotice } from "../../components/ui/retry-notice";
import { PageSpinner } from "../../components/ui/spinner";
import { Textarea } from "../../components/ui/textarea";
import { isAlreadyReported } from "../../lib/already-reported";
import { ApiError } from "../../lib/api";
import { DASHBOARD_LOCALE } from "../../lib/money";
import { cn } from "../../lib/utils";
import { formatSaleDate } from "../sales/sale-format";
import { SellerGate } from "../seller/seller-gate";
import { useDispute, useSaveDispute, useSubmitDispute } from "./disputes-api";

const STATUS_TONES: Record<string, "danger" | "warning" | "success" | "neutral"> = {
  needs_response: "danger",
  under_review: "warning",
  won: "success",
  lost: "neutral",
};

/** "in 6 days", "in 5 hours", "passed": how long the creator has left. */
function timeLeft(dueBy: string, now = Date.now()): string {
  const ms = new Date(dueBy).getTime() - now;
  if (ms <= 0) return "passed";
  const hours = Math.floor(ms / 3_600_000);
  if (hours < 48) return `in ${hours} hour${hours === 1 ? "" : "s"}`;
  const days = Math.floor(hours / 24);
  return `in ${days} days`;
}

function Facts({ dispute }: { dispute: DisputeView }) {
  const items = [
    { label: "Amount", value: formatMoney(dispute.amountCents, dispute.currency, DASHBOARD_LOCALE) },
    { label: "Reason", value: disputeReasonLabel(dispute.reason) },
    {
      label: "Evidence due",
      value: dispute.dueBy ? formatSaleDate(dispute.dueBy) : "—",
      note: dispute.dueBy && dispute.canSubmit ? timeLeft(dispute.dueBy) : undefined,
    },
    { label: "Opened", value: formatSaleDate(dispute.createdAt) },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {items.map((item) => (
        <Card key={item.label} className="min-w-0 p-4">
          <dt className="text-sm text-muted">{item.label}</dt>
          <dd className="mt-1 text-lg font-semibold break-words text-ink tabular-nums">{item.value}</dd>
          {item.note && <dd className="text-xs text-muted">{item.note}</dd>}
        </Card>
      ))}
    </dl>
  );
}

/** Where the dispute stands, in a sentence, when it is no longer the creator's to answer. */
function StateNotice({ dispute }: { dispute: DisputeView }) {
  let text: string | null = null;
  if (dispute.status === "won")
    text = "You won: the money is back in your balance and the buyer's access is restored.";
  else if (dispute.status === "lost")
    text = "You lost: the money stays withdrawn and the buyer's access stays revoked.";
  else if (dispute.submittedAt)
    text = `Evidence submitted ${formatSaleDate(dispute.submittedAt)}. ${DISPUTE_MESSAGES.submitted}`;
  else if (!dispute.canSubmit) text = DISPUTE_MESSAGES.pastDue;
  if (!text) return null;
  return (
    <p role="status" className="rounded-lg border border-line bg-slate-50 px-4 py-3 text-sm text-ink">
      {text}
    </p>
  );
}

function EvidenceForm({ userId, dispute }: { userId: string; dispute: DisputeView }) {
  const id = useId();
  const [evidence, setEvidence] = useState<DisputeEvidence>(dispute.evidence);
  const [confirming, setConfirming] = useState(false);
  const save = useSaveDispute(userId, dispute.id);
  const submit = useSubmitDispute(userId, dispute.id);
  const editable = dispute.canSubmit;
  const dirty = DISPUTE_EVIDENCE_FIELDS.some((field) => evidence[field] !== dispute.evidence[field]);
  const failed = (title: string) => (error: Error) => {
    if (!isAlreadyReported(error)) toast.error(title, { description: error.message });
  };

  const saveDraft = () =>
    save.mutate(
      { evidence },
      { onSuccess: () => toast.success(DISPUTE_MESSAGES.savedTitle), onError: failed("Not saved") },
    );
  const setAutoSubmit = (autoSubmit: boolean) =>
    save.mutate(
      { autoSubmit, ...(dirty ? { evidence } : {}) },
      {
        onSuccess: () => toast.success(autoSubmit ? "Auto-submit on" : "Auto-submit off"),
        onError: failed("Not saved"),
      },
    );
  const submitEvidence = () =>
    submit.mutate(evidence, {
      onSuccess: () => {
        setConfirming(false);
        toast.success(DISPUTE_MESSAGES.submittedTitle, { description: DISPUTE_MESSAGES.submitted });
      },
      onError: (error) => {
        setConfirming(false);
        failed("Not submitted")(error);
      },
    });

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Evidence</CardTitle>
        <CardDescription>
          Assembled from this sale's records: the receipt, the download log, the license checks and what the
          buyer accepted at checkout. Review each field and edit what you like; the PDF (the receipt and terms
          as one page) is attached when you submit.
        </CardDescription>
        <p className="pt-1">
          <a
            href={dispute.pdfPath}
            target="_blank"
            rel="noreferrer"
            className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
          >
            <FileText aria-hidden="true" className="size-4" />
            Preview the evidence PDF{dirty ? " (as last saved)" : ""}
          </a>
        </p>
      </CardHeader>
      <CardContent className="space-y-5">
        {DISPUTE_EVIDENCE_FIELDS.map((field) => {
          const { label, hint } = DISPUTE_EVIDENCE_LABELS[field];
          const long = evidence[field].length > 120 || field === "access_activity_log";
          // Tall enough for what it says (at about 90 characters a line), within reason.
          const rows = Math.min(
            12,
            Math.max(
              2,
              evidence[field].split("\n").reduce((sum, line) => sum + Math.ceil((line.length || 1) / 90), 0),
            ),
          );
          return (
            <div key={field} className="min-w-0 space-y-1.5">
              <label htmlFor={`${id}-${field}`} className="block text-sm font-medium text-ink">
                {label}
              </label>
              <p id={`${id}-${field}-hint`} className="text-xs text-muted">
                {hint}
              </p>
              <Textarea
                id={`${id}-${field}`}
                name={field}
                aria-describedby={`${id}-${field}-hint`}
                value={evidence[field]}
                readOnly={!editable}
                maxLength={DISPUTE_LIMITS.evidenceFieldMaxLength}
                rows={rows}
                className={cn(
                  long ? "font-mono text-xs" : "min-h-0",
                  !editable && "bg-slate-50 text-slate-700",
                )}
                onChange={(event) => setEvidence((current) => ({ ...current, [field]: event.target.value }))}
              />
            </div>
          );
        })}
        {editable && (
          <>
            <label className="flex cursor-pointer items-start gap-3 rounded-lg border border-line p-3 text-sm text-ink">
              <input
                type="checkbox"
                className="mt-0.5 size-4 shrink-0 accent-brand-600"
                checked={dispute.autoSubmit}
                disabled={save.isPending}
                aria-describedby={`${id}-auto-hint`}
                onChange={(event) => setAutoSubmit(event.target.checked)}
              />
              <span className="min-w-0">
                <span className="block font-medium">Submit automatically 48 hours before the deadline</span>
                <span id={`${id}-auto-hint`} className="block text-xs text-muted">
                  {dispute.autoSubmit ? DISPUTE_MESSAGES.autoSubmitOn : DISPUTE_MESSAGES.autoSubmitOff}
                </span>
              </span>
            </label>
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Button variant="secondary" disabled={!dirty || save.isPending} onClick={saveDraft}>
                Save draft
              </Button>
              <Button disabled={submit.isPending} onClick={() => setConfirming(true)}>
                Submit evidence
              </Button>
            </div>
          </>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        title="Submit evidence"
        description={DISPUTE_MESSAGES.submitConfirm}
        confirmLabel="Submit"
        busyLabel="Submitting..."
        busy={submit.isPending}
        onConfirm={submitEvidence}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}

function DisputeScreen({ userId, disputeId }: { userId: string; disputeId: string }) {
  const query = useDispute(userId, disputeId);
  const dispute = query.data;
  if (query.isPending) return <PageSpinner label="Loading the dispute" />;
  if (!dispute) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className="space-y-6">
        <BackLink to="/dashboard">Back to Dashboard</BackLink>
        <RetryNotice
          message={missing ? DISPUTE_MESSAGES.notFound : DISPUTE_MESSAGES.loadFailed}
          onRetry={() => void query.refetch()}
        />
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <BackLink to="/dashboard">Back to Dashboard</BackLink>
      <div className="min-w-0">
        <h1 className="flex flex-wrap items-center gap-x-3 gap-y-2 text-3xl font-bold tracking-tight text-ink">
          <ShieldAlert aria-hidden="true" className="size-7 shrink-0 text-red-600" />
          Dispute
          <Badge tone={STATUS_TONES[dispute.status] ?? "neutral"}>{disputeStatusLabel(dispute.status)}</Badge>
        </h1>
        <p className="mt-1 text-sm break-words text-muted">
          {dispute.productTitle} · bought by {dispute.customerEmail}. The buyer's downloads and license key
          are{" "}
          {dispute.status === "won"
            ? "restored"
            : dispute.status === "lost"
              ? "revoked"
              : "suspended until the bank decides"}
          .
        </p>
      </div>
      <Facts dispute={dispute} />
      <StateNotice dispute={dispute} />
      <EvidenceForm key={dispute.id} userId={userId} dispute={dispute} />
    </div>
  );
}

/** /dashboard/disputes/:disputeId: a sale's dispute, its deadline, the assembled evidence to review and submit. */
export function DisputePage() {
  const { disputeId = "" } = useParams();
  return <SellerGate>{({ user }) => <DisputeScreen userId={user.id} disputeId={disputeId} />}</SellerGate>;
}
