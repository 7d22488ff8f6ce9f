import type Stripe from "stripe";
import type { Emulator } from "../emulator.js";
import { invalidRequest, resourceMissing } from "../errors.js";
import { newId } from "../ids.js";
import {
  buildDispute,
  type DisputeReason,
  EVIDENCE_FIELDS,
  type EvidenceField,
  isDisputeClosed,
} from "../objects/dispute.js";
import { mergeMetadata } from "../params.js";
import { snapshot } from "../state/snapshot.js";
import type { Scope } from "../state/types.js";
import { AUTOMATIC, type EventOrigin } from "../webhooks/events.js";
import { recordBalanceMovement, settleLikeCharge } from "./payments.js";

/** How long the seller has to answer a dispute, from when it opens (`evidence_details.due_by`). */
export const EVIDENCE_WINDOW_SECONDS = 7 * 86_400;

/** A charge by id on whichever account holds it (the control API names charges without an account). */
export function findCharge(emulator: Emulator, id: string): { account: Scope; charge: Stripe.Charge } {
  const owned = emulator.store.state.charges[id];
  if (!owned) throw resourceMissing("charge", id);
  return { account: owned.account, charge: owned.object };
}

export function findDispute(emulator: Emulator, id: string): { account: Scope; dispute: Stripe.Dispute } {
  const owned = emulator.store.state.disputes[id];
  if (!owned) throw resourceMissing("dispute", id);
  return { account: owned.account, dispute: owned.object };
}

export function chargeDisputes(emulator: Emulator, account: Scope, chargeId: string): Stripe.Dispute[] {
  return emulator.store.list("disputes", account).filter((dispute) => dispute.charge === chargeId);
}

export interface DisputeOpening {
  reason: DisputeReason;
  /** Default: all that can still be disputed (the charge's amount, unless refunded or disputed before). */
  amount?: number | undefined;
}

/**
 * The cardholder's bank disputes a charge, as Stripe opens a chargeback: the disputed amount and the
 * dispute fee are withdrawn at once (one balance transaction), the charge is marked `disputed`, and the
 * dispute waits for evidence (`needs_response`). Events: `charge.dispute.created`, then
 * `charge.dispute.funds_withdrawn`.
 */
export function openDispute(
  emulator: Emulator,
  account: Scope,
  charge: Stripe.Charge,
  opening: DisputeOpening,
  origin: EventOrigin,
): Stripe.Dispute {
  const { store, events } = emulator;
  if (charge.status !== "succeeded" || !charge.paid) {
    throw invalidRequest(`Charge ${charge.id} has not succeeded, so it cannot be disputed.`, "charge");
  }
  const disputed = chargeDisputes(emulator, account, charge.id).reduce((sum, d) => sum + d.amount, 0);
  const open = charge.amount - charge.amount_refunded - disputed;
  if (open <= 0) {
    throw invalidRequest(
      disputed > 0
        ? `Charge ${charge.id} is already fully disputed.`
        : `Charge ${charge.id} has been fully refunded, so it cannot be disputed.`,
      "charge",
    );
  }
  const amount = opening.amount ?? open;
  if (amount < 1 || amount > open) {
    throw invalidRequest(
      `The dispute amount (${amount}) must be between 1 and what charge ${charge.id} has left to dispute (${open}).`,
      "amount",
    );
  }

  const id = newId("dp");
  const now = emulator.now();
  const withdrawal = recordBalanceMovement(emulator, account, {
    kind: "dispute",
    source: id,
    amount,
    currency: charge.currency,
    description: `Chargeback withdrawal for ${charge.id}`,
    settled: settleLikeCharge(emulator, account, charge, amount),
  });
  const dispute = buildDispute(id, now, {
    charge,
    amount,
    reason: opening.reason,
    dueBy: now + EVIDENCE_WINDOW_SECONDS,
    withdrawal: snapshot(withdrawal),
  });
  store.put("disputes", account, dispute);
  charge.disputed = true;
  store.put("charges", account, charge);
  events.emit(account, { type: "charge.dispute.created", data: { object: dispute } }, origin);
  events.emit(account, { type: "charge.dispute.funds_withdrawn", data: { object: dispute } }, origin);
  return dispute;
}

export interface DisputeChanges {
  evidence?: Partial<Record<EvidenceField, string>> | undefined;
  metadata?: Record<string, string> | "" | undefined;
  submit?: boolean | undefined;
  intended_submission_method?: Stripe.Dispute.IntendedSubmissionMethod | undefined;
}

function closedError(dispute: Stripe.Dispute) {
  return invalidRequest(
    `This dispute is already closed (status: ${dispute.status}) and can no longer be changed.`,
  );
}

/**
 * `POST /v1/disputes/:id`: stages evidence, or submits it (`submit`, Stripe's default when evidence is
 * given), which puts the dispute `under_review`. Sends `charge.dispute.updated` when anything changed.
 */
export function updateDispute(
  emulator: Emulator,
  account: Scope,
  dispute: Stripe.Dispute,
  changes: DisputeChanges,
  origin: EventOrigin,
): Stripe.Dispute {
  if (isDisputeClosed(dispute)) throw closedError(dispute);
  const submitting = changes.submit ?? changes.evidence !== undefined;
  const touchesEvidence = submitting || changes.evidence !== undefined;
  if (touchesEvidence && dispute.status !== "needs_response") {
    throw invalidRequest(
      `The evidence of this dispute was already submitted (status: ${dispute.status}); it can no longer be changed.`,
      "evidence",
    );
  }

  const previous: Partial<Stripe.Dispute> = {};
  const before = snapshot(dispute);
  if (changes.evidence !== undefined) {
    for (const field of EVIDENCE_FIELDS) {
      const value = changes.evidence[field];
      if (value !== undefined) dispute.evidence[field] = value === "" ? null : value;
    }
  }
  if (changes.metadata !== undefined) dispute.metadata = mergeMetadata(dispute.metadata, changes.metadata);
  if (changes.intended_submission_method !== undefined) {
    dispute.intended_submission_method = changes.intended_submission_method;
  }
  const details = dispute.evidence_details;
  details.has_evidence = EVIDENCE_FIELDS.some((field) => dispute.evidence[field] !== null);
  if (submitting) {
    details.submission_count += 1;
    details.submission_method = "manual";
    details.past_due = details.due_by !== null && emulator.now() > details.due_by;
    dispute.status = "under_review";
  }

  for (const key of [
    "evidence",
    "evidence_details",
    "metadata",
    "intended_submission_method",
    "status",
  ] as const) {
    if (JSON.stringify(before[key]) !== JSON.stringify(dispute[key]))
      Object.assign(previous, { [key]: before[key] });
  }
  if (Object.keys(previous).length === 0) return dispute;
  emulator.store.put("disputes", account, dispute);
  emulator.events.emit(
    account,
    { type: "charge.dispute.updated", data: { object: dispute, previous_attributes: previous } },
    origin,
  );
  return dispute;
}

/**
 * `POST /v1/disputes/:id/close`: the seller accepts the dispute. It is lost at once
 * (`charge.dispute.closed`); the withdrawn money and the fee stay withdrawn.
 */
export function closeDispute(
  emulator: Emulator,
  account: Scope,
  dispute: Stripe.Dispute,
  origin: EventOrigin,
): Stripe.Dispute {
  if (isDisputeClosed(dispute)) throw closedError(dispute);
  if (dispute.status !== "needs_response") {
    throw invalidRequest(
      `This dispute is ${dispute.status}: only a dispute that needs a response can be closed (accepted).`,
    );
  }
  return finishDispute(emulator, account, dispute, "lost", origin);
}

/**
 * The bank's decision (`/_emulator/disputes/:id/resolve`): `won` gives the disputed amount back (a
 * `dispute_reversal` balance transaction, `charge.dispute.funds_reinstated`), then both outcomes close
 * the dispute (`charge.dispute.closed`).
 */
export function resolveDispute(
  emulator: Emulator,
  account: Scope,
  dispute: Stripe.Dispute,
  outcome: "won" | "lost",
  origin: EventOrigin,
): Stripe.Dispute {
  if (isDisputeClosed(dispute)) throw closedError(dispute);
  return finishDispute(emulator, account, dispute, outcome, origin);
}

function finishDispute(
  emulator: Emulator,
  account: Scope,
  dispute: Stripe.Dispute,
  outcome: "won" | "lost",
  origin: EventOrigin,
): Stripe.Dispute {
  const { store, events } = emulator;
  dispute.status = outcome;
  if (outcome === "won") {
    const chargeId = typeof dispute.charge === "string" ? dispute.charge : dispute.charge.id;
    const charge = store.find("charges", account, chargeId);
    const reversal = recordBalanceMovement(emulator, account, {
      kind: "dispute_reversal",
      source: dispute.id,
      amount: dispute.amount,
      currency: dispute.currency,
      description: `Chargeback reversal for ${chargeId}`,
      settled: charge ? settleLikeCharge(emulator, account, charge, dispute.amount) : undefined,
    });
    dispute.balance_transactions.push(snapshot(reversal));
    store.put("disputes", account, dispute);
    events.emit(account, { type: "charge.dispute.funds_reinstated", data: { object: dispute } }, origin);
  } else {
    store.put("disputes", account, dispute);
  }
  events.emit(account, { type: "charge.dispute.closed", data: { object: dispute } }, origin);
  return dispute;
}

/** Disputes left without a submitted response when `evidence_details.due_by` passes are lost. */
export function closeOverdueDisputes(emulator: Emulator): void {
  const now = emulator.now();
  for (const { account, object: dispute } of Object.values(emulator.store.state.disputes)) {
    const dueBy = dispute.evidence_details.due_by;
    if (dispute.status === "needs_response" && dueBy !== null && dueBy < now) {
      finishDispute(emulator, account, dispute, "lost", AUTOMATIC);
    }
  }
}
