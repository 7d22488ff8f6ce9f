import type { ReactNode } from "react";
import {
  ACTION_LABELS,
  type Appeal,
  ENFORCEMENT_POLICY_PATH,
  type EnforcementAction,
} from "../../../contracts/enforcement";
import { Badge } from "../../components/ui/badge";
import { formatSaleDate } from "../sales/sale-format";

const APPEAL_STATUS: Record<Appeal["status"], string> = {
  open: "Appeal open",
  reinstated: "Appeal granted",
  upheld: "Appeal not granted",
  closed: "Appeal closed",
};

/** Where an action comes from: the report it answers, or our rules. */
function Source({ action }: { action: EnforcementAction }) {
  return action.reportId ? (
    <>
      From report <span className="font-mono">{action.reportId}</span>
    </>
  ) : (
    <>
      Under Flatfee's{" "}
      <a href={ENFORCEMENT_POLICY_PATH} className="text-brand-700 underline underline-offset-4">
        enforcement policy
      </a>
    </>
  );
}

/** One action as the seller and the console see it: what, when, why, from where, its appeals. */
export function ActionItem({ action, children }: { action: EnforcementAction; children?: ReactNode }) {
  return (
    <li className="space-y-2 px-6 py-4 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={action.liftedAt ? "neutral" : action.kind === "warn" ? "warning" : "danger"}>
          {ACTION_LABELS[action.kind]}
        </Badge>
        {action.productTitle && (
          <span className="min-w-0 break-words font-medium text-ink">{action.productTitle}</span>
        )}
        <time dateTime={action.createdAt} className="text-muted">
          {formatSaleDate(action.createdAt)}
        </time>
      </div>
      <p className="break-words text-ink">
        <span className="font-medium">Why: </span>
        {action.reason}
      </p>
      <p className="text-xs text-muted">
        <Source action={action} />
        {action.revokeDownloads && " · Buyers' downloads stopped"}
      </p>
      {action.liftedAt && (
        <p className="break-words text-xs text-muted">
          Lifted {formatSaleDate(action.liftedAt)}
          {action.liftedReason ? `: ${action.liftedReason}` : ""}
        </p>
      )}
      {action.appeals.length > 0 && (
        <ul className="space-y-2 border-l-2 border-line pl-3" aria-label="Appeals">
          {action.appeals.map((appeal) => (
            <li key={appeal.id} className="space-y-1">
              <p className="text-xs font-medium text-muted">
                {APPEAL_STATUS[appeal.status]} · sent {formatSaleDate(appeal.createdAt)}
              </p>
              <p className="break-words whitespace-pre-line text-ink">{appeal.body}</p>
              {appeal.answerReason && (
                <p className="break-words text-xs text-muted">Answer: {appeal.answerReason}</p>
              )}
            </li>
          ))}
        </ul>
      )}
      {children}
    </li>
  );
}
