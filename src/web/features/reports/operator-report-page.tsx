import { CalendarClock, ExternalLink, Gavel, Undo2 } from "lucide-react";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { toast } from "sonner";
import { actionReasonSchema } from "../../../contracts/operator";
import {
  COUNTER_NOTICE_STATEMENTS,
  DMCA_STATEMENTS,
  type OperatorReport,
  REPORT_STATUS_LABELS,
} from "../../../contracts/reports";
import { BackLink } from "../../components/back-link";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Label } from "../../components/ui/label";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { Textarea } from "../../components/ui/textarea";
import { isAlreadyReported } from "../../lib/already-reported";
import { ApiError } from "../../lib/api";
import { formatBytes } from "../../lib/format-bytes";
import { AuditLog } from "../operator/audit-log-page";
import { OperatorGate } from "../operator/operator-gate";
import { formatSaleDate } from "../sales/sale-format";
import { Fact, ReportStatusBadge, reasonLabel } from "./report-badges";
import { useChangeReportStatus, useOperatorReport } from "./reports-api";

const Ticked = ({ text }: { text: string }) => (
  <span>
    <span aria-hidden="true" className="mr-1.5 font-semibold text-emerald-700">
      ✓
    </span>
    <span className="sr-only">Confirmed: </span>
    {text}
  </span>
);

function Decision({ report }: { report: OperatorReport }) {
  const change = useChangeReportStatus(report.id);
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | undefined>();
  const open = report.status === "new" || report.status === "in_review";
  const act = (status: "in_review" | "dismissed" | "actioned") => {
    if (status !== "in_review") {
      const checked = actionReasonSchema.safeParse(reason);
      if (!checked.success) {
        setProblem(checked.error.issues[0]?.message);
        return;
      }
    }
    setProblem(undefined);
    change.mutate(status === "in_review" ? { status } : { status, reason }, {
      onSuccess: (updated) => {
        setReason("");
        toast.success(`Report ${REPORT_STATUS_LABELS[updated.status].toLowerCase()}`);
      },
      onError: (error) => {
        if (!isAlreadyReported(error))
          toast.error("Couldn't change the report", { description: error.message });
      },
    });
  };
  const sellerAction = `/operator/sellers/${encodeURIComponent(report.seller.id)}?${new URLSearchParams({
    report: report.id,
    ...(report.product?.id ? { product: report.product.id } : {}),
  })}`;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Decision</CardTitle>
        <CardDescription>
          Every change is kept in the audit log with its reason. Dismissing or marking actioned closes the
          report.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {!open && (
          <p className="text-sm text-ink">
            {REPORT_STATUS_LABELS[report.status]}: <span className="break-words">{report.statusReason}</span>
          </p>
        )}
        {report.status === "new" && (
          <Button variant="secondary" disabled={change.isPending} onClick={() => act("in_review")}>
            Mark in review
          </Button>
        )}
        {open && (
          <div className="space-y-2">
            <Label htmlFor="decision-reason">Reason (for dismissing or marking actioned)</Label>
            <p id="decision-reason-hint" className="text-sm text-muted">
              The reporter is emailed the decision with this reason, as you write it.
            </p>
            <Textarea
              id="decision-reason"
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              {...fieldErrorProps("decision-reason-problem", problem, "decision-reason-hint")}
            />
            <FieldError id="decision-reason-problem" message={problem} />
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" disabled={change.isPending} onClick={() => act("dismissed")}>
                Dismiss
              </Button>
              <Button disabled={change.isPending} onClick={() => act("actioned")}>
                Mark actioned
              </Button>
            </div>
          </div>
        )}
        <div className="border-t border-line pt-4">
          <Button asChild variant="secondary">
            <Link to={sellerAction}>
              <Gavel aria-hidden="true" />
              Take action on this seller
            </Link>
          </Button>
          <p className="mt-2 text-sm text-muted">
            Warn, restrict, suspend or take down: the seller's page records this report with the action.
          </p>
        </div>
      </CardContent>
    </Card>
  );
}

function Reported({ report }: { report: OperatorReport }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>The report</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="divide-y divide-line">
          <Fact label="Received">{formatSaleDate(report.createdAt)}</Fact>
          <Fact label="Reason">{reasonLabel(report.reason)}</Fact>
          <Fact label="Reporter">
            {report.reporterEmail} <span className="text-muted">({report.reporterLocale})</span>
          </Fact>
          <Fact label="Details">{report.details || <span className="text-muted">None given</span>}</Fact>
        </dl>
        {report.dmca && (
          <>
            <h3 className="mt-6 text-base font-semibold text-ink">Copyright notice (DMCA)</h3>
            <dl className="mt-2 divide-y divide-line">
              <Fact label="Copyrighted work">{report.dmca.work}</Fact>
              <Fact label="Infringing material at">{report.dmca.location}</Fact>
              <Fact label="Claimant">{report.dmca.fullName}</Fact>
              <Fact label="Address and phone">{report.dmca.contact}</Fact>
              <Fact label="Good faith statement">
                <Ticked text={DMCA_STATEMENTS.goodFaith} />
              </Fact>
              <Fact label="Accuracy, under penalty of perjury">
                <Ticked text={DMCA_STATEMENTS.accuracy} />
              </Fact>
              <Fact label="Electronic signature">{report.dmca.signature}</Fact>
            </dl>
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** The seller's page with the action form set to reinstate the reported product (enforcement's form). */
const reinstateLink = (report: OperatorReport) =>
  `/operator/sellers/${encodeURIComponent(report.seller.id)}?${new URLSearchParams({
    report: report.id,
    ...(report.product?.id ? { product: report.product.id } : {}),
    action: "reinstate-product",
  })}`;

/**
 * When the counter-notice was forwarded to the claimant and, while the product is taken down, from when
 * it may be restored (10 business days on); once that date has passed, a reminder to decide. Nothing is
 * restored by itself.
 */
function CounterNoticeTimer({ report }: { report: OperatorReport }) {
  const timer = report.counterNoticeForwarded;
  if (!timer) return null;
  return (
    <div className="space-y-3 rounded-lg border border-line bg-slate-50/70 px-4 py-3 text-sm text-ink">
      <p className="flex gap-2">
        <CalendarClock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted" />
        <span>
          Counter-notice forwarded {formatSaleDate(timer.forwardedAt)}
          {timer.productTakenDown ? (
            <>
              ; the product may be restored from{" "}
              <span className="font-semibold">{formatSaleDate(timer.restoreAfter)}</span>, unless the claimant
              tells you they have filed a court action.
            </>
          ) : (
            "."
          )}
        </span>
      </p>
      {timer.readyToRestore && (
        <div className="space-y-2 border-t border-line pt-3">
          <p className="font-medium text-amber-800">
            Ready to restore: the date has passed and the product is still taken down.
          </p>
          <Button asChild variant="secondary" size="sm">
            <Link to={reinstateLink(report)}>
              <Undo2 aria-hidden="true" />
              Reinstate the product
            </Link>
          </Button>
        </div>
      )}
    </div>
  );
}

function SellerAnswer({ report }: { report: OperatorReport }) {
  const answer = report.answer;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{answer?.counterNotice ? "Seller's counter-notice" : "Seller's answer"}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <CounterNoticeTimer report={report} />
        {!answer ? (
          <p className="text-sm text-muted">The seller has not answered.</p>
        ) : (
          <dl className="divide-y divide-line">
            <Fact label="Answered">{formatSaleDate(answer.answeredAt)}</Fact>
            <Fact label="Answer">{answer.message}</Fact>
            {answer.counterNotice && (
              <>
                <Fact label="Name">{answer.counterNotice.fullName}</Fact>
                <Fact label="Address">{answer.counterNotice.address}</Fact>
                <Fact label="Phone">{answer.counterNotice.phone}</Fact>
                <Fact label="Mistake or misidentification">
                  <Ticked text={COUNTER_NOTICE_STATEMENTS.mistake} />
                </Fact>
                <Fact label="Jurisdiction and service">
                  <Ticked text={COUNTER_NOTICE_STATEMENTS.jurisdiction} />
                </Fact>
                <Fact label="Electronic signature">{answer.counterNotice.signature}</Fact>
              </>
            )}
          </dl>
        )}
      </CardContent>
    </Card>
  );
}

function ReportedProduct({ report }: { report: OperatorReport }) {
  const product = report.product;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{product ? "The product" : "The store"}</CardTitle>
      </CardHeader>
      <CardContent>
        {!product ? (
          <p className="text-sm text-ink">
            The report is about the store as a whole:{" "}
            <a
              href={`/store/${encodeURIComponent(report.seller.id)}`}
              target="_blank"
              rel="noreferrer"
              className="font-medium text-brand-700 underline-offset-2 hover:underline"
            >
              open the store
            </a>
            .
          </p>
        ) : (
          <>
            <dl className="divide-y divide-line">
              <Fact label="Title">{product.title}</Fact>
              <Fact label="Status">
                {!product.exists ? "Deleted by the seller" : product.isActive ? "Listed" : "Unlisted"}
              </Fact>
              {product.url && (
                <Fact label="Page">
                  <a
                    href={product.url}
                    target="_blank"
                    rel="noreferrer"
                    className="inline-flex items-center gap-1 font-medium break-all text-brand-700 underline-offset-2 hover:underline"
                  >
                    {product.url}
                    <ExternalLink className="size-3.5 shrink-0" aria-hidden="true" />
                  </a>
                </Fact>
              )}
            </dl>
            {product.files.length > 0 && (
              <>
                <h3 className="mt-6 text-base font-semibold text-ink">Files and their checks</h3>
                <p className="mt-1 text-sm text-muted">{report.fileChecks}</p>
                <ul className="mt-3 divide-y divide-line rounded-lg border border-line">
                  {product.files.map((file) => (
                    <li key={file.id} className="space-y-0.5 px-4 py-3 text-sm">
                      <p className="font-medium break-all text-ink">{file.name}</p>
                      <p className="break-all text-muted">
                        Uploaded as {file.originalName}
                        {file.sizeBytes !== null && ` · ${formatBytes(file.sizeBytes)}`}
                      </p>
                      <p className="text-muted">
                        Declared {file.declaredType || "no type"}; content checked as{" "}
                        <span className="font-medium text-ink">{file.contentType ?? "unknown"}</span>
                        {file.checkedAt && ` on ${formatSaleDate(file.checkedAt)}`} ·{" "}
                        {file.status === "attached" || file.status === "completed"
                          ? "passed the checks"
                          : file.status}
                      </p>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function SellerHistory({ report }: { report: OperatorReport }) {
  return (
    <Card className="overflow-hidden">
      <CardHeader>
        <CardTitle>The seller</CardTitle>
        <CardDescription className="break-all">
          {report.seller.storeName ?? "Unnamed store"} · {report.seller.email ?? "no account"} ·{" "}
          {report.seller.id}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <div>
          <h3 className="text-base font-semibold text-ink">Other reports about this seller</h3>
          {report.sellerHistory.length === 0 ? (
            <p className="mt-2 text-sm text-muted">None.</p>
          ) : (
            <ul className="mt-2 divide-y divide-line rounded-lg border border-line">
              {report.sellerHistory.map((earlier) => (
                <li
                  key={earlier.id}
                  className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2.5 text-sm"
                >
                  <Link
                    to={`/operator/reports/${earlier.id}`}
                    className="min-w-0 font-medium break-words text-brand-700 underline-offset-2 hover:underline"
                  >
                    {reasonLabel(earlier.reason)}: {earlier.productTitle ?? "the store"}
                  </Link>
                  <span className="text-muted tabular-nums">{formatSaleDate(earlier.createdAt)}</span>
                  <ReportStatusBadge status={earlier.status} />
                  {earlier.statusReason && (
                    <span className="w-full break-words text-muted">{earlier.statusReason}</span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div>
          <h3 className="text-base font-semibold text-ink">Audit log for this seller</h3>
        </div>
      </CardContent>
      <div className="-mt-4">
        <AuditLog sellerId={report.seller.id} />
      </div>
    </Card>
  );
}

function Report({ reportId }: { reportId: string }) {
  const { data: report, error, isPending, refetch } = useOperatorReport(reportId);
  if (isPending)
    return (
      <div className="flex justify-center py-10">
        <Spinner label="Loading the report" />
      </div>
    );
  if (error instanceof ApiError && error.status === 404)
    return (
      <div className="space-y-4">
        <BackLink to="/operator/reports">All reports</BackLink>
        <h1 className="text-2xl font-bold tracking-tight text-ink">Report not found</h1>
      </div>
    );
  if (!report)
    return <RetryNotice message="The report could not be loaded." onRetry={() => void refetch()} />;
  return (
    <div className="space-y-6">
      <BackLink to="/operator/reports">All reports</BackLink>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 text-2xl font-bold tracking-tight break-words text-ink">
          {reasonLabel(report.reason)}:{" "}
          {report.product?.title ?? `store ${report.seller.storeName ?? ""}`.trim()}
        </h1>
        <ReportStatusBadge status={report.status} />
      </div>
      <div className="grid gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="min-w-0 space-y-6">
          <Reported report={report} />
          <SellerAnswer report={report} />
          <ReportedProduct report={report} />
        </div>
        <div className="min-w-0 space-y-6">
          <Decision report={report} />
        </div>
      </div>
      <Card className="overflow-hidden">
        <CardHeader>
          <CardTitle>This report's audit log</CardTitle>
        </CardHeader>
        <div className="mt-2">
          <AuditLog reportId={report.id} />
        </div>
      </Card>
      <SellerHistory report={report} />
    </div>
  );
}

/** /operator/reports/:reportId: one report with all it needs for a decision. */
export function OperatorReportPage() {
  const { reportId = "" } = useParams();
  return (
    <OperatorGate>
      <Report reportId={reportId} />
    </OperatorGate>
  );
}
