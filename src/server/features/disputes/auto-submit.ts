import type Stripe from "stripe";
import type { ChangeDeps } from "../../adapters/events/commit-change";
import type { JobHandler } from "../../jobs/job-queue";
import { autoSubmitDisputeJob } from "./auto-submit-job";
import { submissionRefusal, submitDispute } from "./dispute-page";

/**
 * The auto-submission (docs/disputes.md): when it runs, the dispute must still be opted in, unsubmitted
 * and open; then the evidence as it stands (the creator's draft over the assembled) is submitted as the
 * creator would. Anything else leaves it nothing to do. A Stripe failure throws, so the queue retries.
 */
export function autoSubmitJobHandler(
  deps: ChangeDeps & { stripe: Stripe },
): JobHandler<{ disputeId: string }> {
  return {
    kind: autoSubmitDisputeJob,
    maxAttempts: 4,
    run: async ({ disputeId }, { now }) => {
      const dispute = await deps.db
        .selectFrom("disputes")
        .selectAll()
        .where("id", "=", disputeId)
        .executeTakeFirst();
      if (!dispute?.auto_submit || submissionRefusal(dispute, now)) return;
      await submitDispute({ ...deps, now: () => now }, dispute.seller_id, disputeId, undefined, "auto");
    },
  };
}
