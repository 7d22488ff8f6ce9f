import { sql } from "kysely";
import type Stripe from "stripe";
import {
  DISPUTE_MESSAGES,
  type DisputeDraft,
  type DisputeEvidence,
  type DisputeView,
} from "../../../contracts/disputes";
import { type ChangeDeps, commitChange } from "../../adapters/events/commit-change";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import { enqueueAutoSubmit } from "./auto-submit-job";
import { currentEvidence, type DisputeFacts, readDisputeFacts } from "./evidence";
import { evidenceFileName, renderEvidencePdf } from "./evidence-pdf";

const CLOSED = new Set(["won", "lost", "warning_closed"]);

/** Why the dispute's evidence can no longer be changed or submitted, or null while it can. */
export function submissionRefusal(dispute: DisputeFacts["dispute"], now: Date): AppError | null {
  if (CLOSED.has(dispute.status) || dispute.closed_at)
    return new AppError("dispute_closed", 409, DISPUTE_MESSAGES.closed);
  if (dispute.submitted_at || dispute.status === "under_review" || dispute.status === "warning_under_review")
    return new AppError("dispute_already_submitted", 409, DISPUTE_MESSAGES.alreadySubmitted);
  if (dispute.due_by && dispute.due_by <= now)
    return new AppError("dispute_closed", 409, DISPUTE_MESSAGES.pastDue);
  return null;
}

/** The dispute page: the dispute, its sale, the evidence (the creator's draft over the assembled one). */
export async function disputeView(
  db: Database,
  sellerId: string,
  disputeId: string,
  now: Date,
): Promise<DisputeView> {
  const facts = await readDisputeFacts(db, sellerId, disputeId);
  const { dispute, order } = facts;
  return {
    id: dispute.id,
    orderId: order.id,
    productTitle: order.product_title,
    customerEmail: order.customer_email,
    amountCents: dispute.amount_cents,
    currency: dispute.currency,
    reason: dispute.reason,
    status: dispute.status,
    dueBy: dispute.due_by?.toISOString() ?? null,
    autoSubmit: dispute.auto_submit,
    submittedAt: dispute.submitted_at?.toISOString() ?? null,
    closedAt: dispute.closed_at?.toISOString() ?? null,
    createdAt: dispute.created_at.toISOString(),
    canSubmit: submissionRefusal(dispute, now) === null,
    evidence: currentEvidence(facts),
    pdfPath: `/api/disputes/${encodeURIComponent(dispute.id)}/evidence.pdf`,
  };
}

/** The evidence PDF as it would be submitted now (the page's preview and download). */
export async function evidencePdf(db: Database, sellerId: string, disputeId: string) {
  const facts = await readDisputeFacts(db, sellerId, disputeId);
  return {
    fileName: evidenceFileName(disputeId),
    pdf: await renderEvidencePdf(facts, currentEvidence(facts)),
  };
}

/**
 * Saves the creator's evidence draft and their auto-submit choice. Opting in queues (or moves) the one
 * auto-submission to 48 hours before the deadline; opting out leaves the job with nothing to do.
 */
export async function saveDisputeDraft(
  deps: ChangeDeps & { now: () => Date },
  sellerId: string,
  disputeId: string,
  draft: DisputeDraft,
): Promise<void> {
  const now = deps.now();
  await commitChange(deps, async (trx, announce) => {
    const dispute = await trx
      .selectFrom("disputes")
      .selectAll()
      .where("id", "=", disputeId)
      .where("seller_id", "=", sellerId)
      .forUpdate()
      .executeTakeFirst();
    if (!dispute) throw new AppError("not_found", 404, DISPUTE_MESSAGES.notFound);
    const refusal = submissionRefusal(dispute, now);
    if (refusal) throw refusal;
    const evidence = draft.evidence ? { ...(dispute.evidence ?? {}), ...draft.evidence } : dispute.evidence;
    await trx
      .updateTable("disputes")
      .set({
        evidence: evidence ? JSON.stringify(evidence) : null,
        ...(draft.autoSubmit !== undefined ? { auto_submit: draft.autoSubmit } : {}),
        updated_at: now,
      })
      .where("id", "=", disputeId)
      .where("seller_id", "=", sellerId)
      .execute();
    if (draft.autoSubmit && dispute.due_by) await enqueueAutoSubmit(trx, disputeId, dispute.due_by, now);
    announce(sellerId, { type: "sales.changed" });
  });
}

export interface SubmitDeps extends ChangeDeps {
  stripe: Stripe;
  now: () => Date;
}

/**
 * Submits the evidence through Stripe's Disputes API on the seller's account: the PDF uploaded first
 * (purpose `dispute_evidence`) and named as the receipt, the refund policy and the uncategorized file,
 * then the text fields
 * with `submit: true`. Once submitted (here, by auto-submit, or in Stripe's Dashboard) or closed, it is
 * refused with a message saying why. Stripe's answer is what is stored.
 */
export async function submitDispute(
  deps: SubmitDeps,
  sellerId: string,
  disputeId: string,
  edits: Partial<DisputeEvidence> | undefined,
  how: "creator" | "auto",
): Promise<DisputeView> {
  if (edits && Object.keys(edits).length > 0)
    await saveDisputeDraft(deps, sellerId, disputeId, { evidence: edits });
  const facts = await readDisputeFacts(deps.db, sellerId, disputeId);
  const refusal = submissionRefusal(facts.dispute, deps.now());
  if (refusal) throw refusal;
  const evidence = currentEvidence(facts);
  const account = facts.dispute.stripe_account_id;
  const pdf = await renderEvidencePdf(facts, evidence);
  const file = await deps.stripe.files.create(
    {
      purpose: "dispute_evidence",
      file: { data: pdf, name: evidenceFileName(disputeId), type: "application/pdf" },
    },
    { stripeAccount: account },
  );
  const texts = Object.fromEntries(Object.entries(evidence).filter(([, value]) => value.trim() !== ""));
  let answered: Stripe.Dispute;
  try {
    answered = await deps.stripe.disputes.update(
      disputeId,
      {
        // The one-page PDF holds the receipt and the terms as shown: it is the file of each.
        evidence: { ...texts, receipt: file.id, refund_policy: file.id, uncategorized_file: file.id },
        submit: true,
        metadata: { submitted_by: how === "auto" ? "flatfee_auto_submit" : "flatfee_creator" },
      },
      { stripeAccount: account },
    );
  } catch (error) {
    const message = (error as { message?: string }).message ?? "Stripe refused the evidence.";
    throw new AppError("dispute_submit_failed", 409, message);
  }
  const now = deps.now();
  await commitChange(deps, async (trx, announce) => {
    // The dispute's `charge.dispute.updated` may have landed first (and marked it submitted): what it
    // recorded stays, the evidence and its file are this submission's.
    await trx
      .updateTable("disputes")
      .set({
        status: sql<string>`case when status = 'needs_response' then ${answered.status} else status end`,
        submitted_at: sql<Date>`coalesce(submitted_at, ${now})`,
        evidence: JSON.stringify(evidence),
        evidence_file_id: file.id,
        updated_at: now,
      })
      .where("id", "=", disputeId)
      .where("seller_id", "=", sellerId)
      .execute();
    announce(sellerId, { type: "sales.changed" });
  });
  return disputeView(deps.db, sellerId, disputeId, now);
}
