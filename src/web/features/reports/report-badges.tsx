import {
  REPORT_REASON_LABELS,
  REPORT_STATUS_LABELS,
  type ReportReason,
  type ReportStatus,
} from "../../../contracts/reports";
import { Badge } from "../../components/ui/badge";

const STATUS_TONES = {
  new: "warning",
  in_review: "brand",
  actioned: "danger",
  dismissed: "neutral",
} as const satisfies Record<ReportStatus, string>;

export function ReportStatusBadge({ status }: { status: ReportStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{REPORT_STATUS_LABELS[status]}</Badge>;
}

export const reasonLabel = (reason: ReportReason) => REPORT_REASON_LABELS[reason];

/** A definition list's row: a label and its value, side by side on a wide screen. */
export function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 py-2.5 sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="min-w-0 text-sm break-words whitespace-pre-line text-ink">{children}</dd>
    </div>
  );
}
