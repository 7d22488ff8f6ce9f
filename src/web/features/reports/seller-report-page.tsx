import { type FormEvent, useState } from "react";
import { useParams } from "react-router";
import { toast } from "sonner";
import {
  COUNTER_NOTICE_STATEMENTS,
  REPORT_STATUS_LABELS,
  reportAnswerSchema,
  type SellerReport,
} from "../../../contracts/reports";
import { BackLink } from "../../components/back-link";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { Textarea } from "../../components/ui/textarea";
import { isAlreadyReported } from "../../lib/already-reported";
import { ApiError } from "../../lib/api";
import { formatSaleDate } from "../sales/sale-format";
import { Fact, ReportStatusBadge, reasonLabel } from "./report-badges";
import { useAnswerReport, useSellerReport } from "./reports-api";
import { SellerReportsFrame, subjectOf } from "./seller-reports-page";

type Fields = {
  message: string;
  fullName: string;
  address: string;
  phone: string;
  signature: string;
  mistake: boolean;
  jurisdiction: boolean;
};
const EMPTY: Fields = {
  message: "",
  fullName: "",
  address: "",
  phone: "",
  signature: "",
  mistake: false,
  jurisdiction: false,
};

function TextInput({
  id,
  label,
  value,
  problem,
  onChange,
  multiline = false,
  autoComplete,
}: {
  id: keyof Fields;
  label: string;
  value: string;
  problem: string | undefined;
  onChange: (value: string) => void;
  multiline?: boolean;
  autoComplete?: string;
}) {
  const props = {
    id: `answer-${id}`,
    value,
    onChange: (event: { target: { value: string } }) => onChange(event.target.value),
    ...fieldErrorProps(`answer-${id}-problem`, problem),
  };
  return (
    <div className="space-y-1.5">
      <Label htmlFor={`answer-${id}`}>{label}</Label>
      {multiline ? <Textarea {...props} /> : <Input {...props} autoComplete={autoComplete} />}
      <FieldError id={`answer-${id}-problem`} message={problem} />
    </div>
  );
}

function Statement({
  id,
  text,
  checked,
  problem,
  onChange,
}: {
  id: "mistake" | "jurisdiction";
  text: string;
  checked: boolean;
  problem: string | undefined;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="space-y-1.5">
      <div className="flex gap-3">
        <input
          id={`answer-${id}`}
          type="checkbox"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          className="mt-0.5 size-4 shrink-0 accent-brand-600"
          {...fieldErrorProps(`answer-${id}-problem`, problem)}
        />
        <label htmlFor={`answer-${id}`} className="text-sm leading-relaxed text-ink">
          {text}
        </label>
      </div>
      <FieldError id={`answer-${id}-problem`} message={problem} />
    </div>
  );
}

function AnswerForm({ userId, report }: { userId: string; report: SellerReport }) {
  const answer = useAnswerReport(userId, report.id);
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [counter, setCounter] = useState(false);
  const [problems, setProblems] = useState<Partial<Record<keyof Fields, string>>>({});
  // Editing a field clears its problem; the others stay until the next send.
  const set =
    <K extends keyof Fields>(key: K) =>
    (value: Fields[K]) => {
      setFields({ ...fields, [key]: value });
      if (problems[key]) setProblems({ ...problems, [key]: undefined });
    };
  const copyright = report.reason === "copyright";

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = {
      message: fields.message,
      ...(copyright && counter
        ? {
            counterNotice: {
              fullName: fields.fullName,
              address: fields.address,
              phone: fields.phone,
              mistake: fields.mistake,
              jurisdiction: fields.jurisdiction,
              signature: fields.signature,
            },
          }
        : {}),
    };
    const parsed = reportAnswerSchema.safeParse(input);
    if (!parsed.success) {
      const found: Partial<Record<keyof Fields, string>> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path.at(-1) as keyof Fields;
        found[key] ??= issue.message;
      }
      setProblems(found);
      return;
    }
    setProblems({});
    answer.mutate(parsed.data, {
      onSuccess: () => toast.success(counter ? "Counter-notice sent" : "Answer sent"),
      onError: (error) => {
        if (!isAlreadyReported(error))
          toast.error("Couldn't send your answer", { description: error.message });
      },
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Answer this report</CardTitle>
        <CardDescription>
          Your answer goes to our team with the report; you can answer once.
          {copyright &&
            " To dispute a copyright claim, send a counter-notice: we forward it to the claimant, who then has 10 to 14 business days to take the matter to court before we may restore what was taken down."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="space-y-5">
          <TextInput
            id="message"
            label="Your answer"
            value={fields.message}
            problem={problems.message}
            onChange={set("message")}
            multiline
          />
          {copyright && (
            <div className="flex gap-3">
              <input
                id="answer-counter"
                type="checkbox"
                checked={counter}
                onChange={(event) => setCounter(event.target.checked)}
                className="mt-0.5 size-4 shrink-0 accent-brand-600"
              />
              <label htmlFor="answer-counter" className="text-sm font-medium text-ink">
                Send this as a counter-notice (DMCA)
              </label>
            </div>
          )}
          {copyright && counter && (
            <fieldset className="rounded-xl border border-line p-4">
              <legend className="px-1 text-base font-semibold text-ink">Counter-notice</legend>
              <div className="space-y-5">
                <TextInput
                  id="fullName"
                  label="Your full legal name"
                  value={fields.fullName}
                  problem={problems.fullName}
                  onChange={set("fullName")}
                  autoComplete="name"
                />
                <TextInput
                  id="address"
                  label="Your postal address"
                  value={fields.address}
                  problem={problems.address}
                  onChange={set("address")}
                  multiline
                />
                <TextInput
                  id="phone"
                  label="Your phone number"
                  value={fields.phone}
                  problem={problems.phone}
                  onChange={set("phone")}
                  autoComplete="tel"
                />
                <Statement
                  id="mistake"
                  text={COUNTER_NOTICE_STATEMENTS.mistake}
                  checked={fields.mistake}
                  problem={problems.mistake}
                  onChange={set("mistake")}
                />
                <Statement
                  id="jurisdiction"
                  text={COUNTER_NOTICE_STATEMENTS.jurisdiction}
                  checked={fields.jurisdiction}
                  problem={problems.jurisdiction}
                  onChange={set("jurisdiction")}
                />
                <TextInput
                  id="signature"
                  label="Electronic signature (type your full legal name)"
                  value={fields.signature}
                  problem={problems.signature}
                  onChange={set("signature")}
                />
              </div>
            </fieldset>
          )}
          <Button type="submit" disabled={answer.isPending}>
            {copyright && counter ? "Send counter-notice" : "Send answer"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function Answer({ report }: { report: SellerReport }) {
  const answer = report.answer;
  if (!answer) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{answer.counterNotice ? "Your counter-notice" : "Your answer"}</CardTitle>
        <CardDescription>Sent {formatSaleDate(answer.answeredAt)}</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="divide-y divide-line">
          <Fact label="Answer">{answer.message}</Fact>
          {answer.counterNotice && (
            <>
              <Fact label="Name">{answer.counterNotice.fullName}</Fact>
              <Fact label="Address">{answer.counterNotice.address}</Fact>
              <Fact label="Phone">{answer.counterNotice.phone}</Fact>
              <Fact label="Signature">{answer.counterNotice.signature}</Fact>
            </>
          )}
        </dl>
      </CardContent>
    </Card>
  );
}

function Report({ userId, reportId }: { userId: string; reportId: string }) {
  const { data: report, error, isPending, refetch } = useSellerReport(userId, reportId);
  if (isPending)
    return (
      <div className="flex justify-center py-10">
        <Spinner label="Loading the report" />
      </div>
    );
  if (error instanceof ApiError && error.status === 404)
    return (
      <div className="space-y-4">
        <BackLink to="/dashboard/reports">All reports</BackLink>
        <h1 className="text-2xl font-bold tracking-tight text-ink">Report not found</h1>
      </div>
    );
  if (!report)
    return <RetryNotice message="The report could not be loaded." onRetry={() => void refetch()} />;
  return (
    <div className="max-w-3xl space-y-6">
      <BackLink to="/dashboard/reports">All reports</BackLink>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 text-2xl font-bold tracking-tight break-words text-ink sm:text-3xl">
          {reasonLabel(report.reason)}: {subjectOf(report)}
        </h1>
        <ReportStatusBadge status={report.status} />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>The report</CardTitle>
          {!report.claim && (
            <CardDescription>Who reported it stays private: only our team sees their email.</CardDescription>
          )}
        </CardHeader>
        <CardContent>
          <dl className="divide-y divide-line">
            <Fact label="Received">{formatSaleDate(report.createdAt)}</Fact>
            <Fact label="Reason">{reasonLabel(report.reason)}</Fact>
            <Fact label="About">
              {report.productId ? (
                <a
                  href={`/product/${report.productId}`}
                  className="font-medium text-brand-700 underline-offset-2 hover:underline"
                >
                  {subjectOf(report)}
                </a>
              ) : (
                subjectOf(report)
              )}
            </Fact>
            <Fact label="Status">
              {REPORT_STATUS_LABELS[report.status]}
              {report.statusReason && `: ${report.statusReason}`}
            </Fact>
            {report.details && <Fact label="Details">{report.details}</Fact>}
          </dl>
          {report.claim && (
            <>
              <h3 className="mt-6 text-base font-semibold text-ink">Copyright notice</h3>
              <p className="mt-1 text-sm text-muted">
                A copyright notice is passed on with the claimant's name and email, so you know who claims the
                work; their address and phone stay with us.
              </p>
              <dl className="mt-2 divide-y divide-line">
                <Fact label="Copyrighted work">{report.claim.work}</Fact>
                <Fact label="Material at">{report.claim.location}</Fact>
                <Fact label="Claimant">
                  {report.claim.claimantName} ({report.claim.claimantEmail})
                </Fact>
                <Fact label="Signed">{report.claim.signature}</Fact>
              </dl>
            </>
          )}
        </CardContent>
      </Card>
      <Answer report={report} />
      {report.canAnswer && <AnswerForm userId={userId} report={report} />}
    </div>
  );
}

/** /dashboard/reports/:reportId: one report about the seller's store, and their answer. */
export function SellerReportPage() {
  const { reportId = "" } = useParams();
  return (
    <SellerReportsFrame>{(userId) => <Report userId={userId} reportId={reportId} />}</SellerReportsFrame>
  );
}
