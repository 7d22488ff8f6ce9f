import { DISPUTE_RULES } from "../../../contracts/disputes";
import type { Database } from "../../db/database";
import { enqueueJob, jobKind } from "../../jobs/job-queue";

/** Submits a dispute's evidence for the creator 48 hours before its deadline, if they opted in (docs/disputes.md). */
export const autoSubmitDisputeJob = jobKind<{ disputeId: string }>("disputes.auto-submit");

/**
 * Queues (or moves) the dispute's one pending auto-submission to 48 hours before `dueBy`, or now when that
 * moment has passed. The job checks again when it runs (opted in, nothing submitted, still open), so a
 * creator who opts out or submits first leaves it nothing to do.
 */
export function enqueueAutoSubmit(trx: Database, disputeId: string, dueBy: Date, now: Date) {
  const at = new Date(Math.max(dueBy.getTime() - DISPUTE_RULES.autoSubmitBeforeDueMs, now.getTime()));
  return enqueueJob(
    trx,
    autoSubmitDisputeJob,
    { disputeId },
    { uniqueKey: `dispute-auto-submit:${disputeId}`, runAt: at, restart: true },
  );
}
