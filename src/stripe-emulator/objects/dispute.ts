import type Stripe from "stripe";

/** The dispute reasons Stripe documents (`Dispute.reason`). */
export const DISPUTE_REASONS = [
  "bank_cannot_process",
  "check_returned",
  "credit_not_processed",
  "customer_initiated",
  "debit_not_authorized",
  "duplicate",
  "fraudulent",
  "general",
  "incorrect_account_details",
  "insufficient_funds",
  "noncompliant",
  "product_not_received",
  "product_unacceptable",
  "subscription_canceled",
  "unrecognized",
] as const;

export type DisputeReason = (typeof DISPUTE_REASONS)[number];

/** The evidence fields given as text or as a file upload id (`evidence[…]` on update). */
export const EVIDENCE_FIELDS = [
  "access_activity_log",
  "billing_address",
  "cancellation_policy",
  "cancellation_policy_disclosure",
  "cancellation_rebuttal",
  "customer_communication",
  "customer_email_address",
  "customer_name",
  "customer_purchase_ip",
  "customer_signature",
  "duplicate_charge_documentation",
  "duplicate_charge_explanation",
  "duplicate_charge_id",
  "product_description",
  "receipt",
  "refund_policy",
  "refund_policy_disclosure",
  "refund_refusal_explanation",
  "service_date",
  "service_documentation",
  "shipping_address",
  "shipping_carrier",
  "shipping_date",
  "shipping_documentation",
  "shipping_tracking_number",
  "uncategorized_file",
  "uncategorized_text",
] as const satisfies readonly (keyof Stripe.Dispute.Evidence)[];

export type EvidenceField = (typeof EVIDENCE_FIELDS)[number];

/** The evidence fields that take the id of a file upload (purpose `dispute_evidence`) rather than text. */
export const EVIDENCE_FILE_FIELDS = [
  "cancellation_policy",
  "customer_communication",
  "customer_signature",
  "duplicate_charge_documentation",
  "receipt",
  "refund_policy",
  "service_documentation",
  "shipping_documentation",
  "uncategorized_file",
] as const satisfies readonly EvidenceField[];

/** A dispute ends `won` or `lost` (or, for inquiries and prevented ones, `warning_closed` / `prevented`). */
export function isDisputeClosed(dispute: Stripe.Dispute): boolean {
  return ["won", "lost", "warning_closed", "prevented"].includes(dispute.status);
}

function emptyEvidence(): Stripe.Dispute.Evidence {
  return {
    access_activity_log: null,
    billing_address: null,
    cancellation_policy: null,
    cancellation_policy_disclosure: null,
    cancellation_rebuttal: null,
    customer_communication: null,
    customer_email_address: null,
    customer_name: null,
    customer_purchase_ip: null,
    customer_signature: null,
    duplicate_charge_documentation: null,
    duplicate_charge_explanation: null,
    duplicate_charge_id: null,
    enhanced_evidence: {},
    product_description: null,
    receipt: null,
    refund_policy: null,
    refund_policy_disclosure: null,
    refund_refusal_explanation: null,
    service_date: null,
    service_documentation: null,
    shipping_address: null,
    shipping_carrier: null,
    shipping_date: null,
    shipping_documentation: null,
    shipping_tracking_number: null,
    uncategorized_file: null,
    uncategorized_text: null,
  };
}

export interface DisputeFields {
  charge: Stripe.Charge;
  amount: number;
  reason: DisputeReason;
  /** `evidence_details.due_by`. */
  dueBy: number;
  /** The withdrawal of the disputed amount and the dispute fee. */
  withdrawal: Stripe.BalanceTransaction;
}

/**
 * A card chargeback as Stripe opens it: the money is already withdrawn (`balance_transactions` holds
 * the withdrawal), and it waits for the seller's evidence until `evidence_details.due_by`.
 */
export function buildDispute(id: string, created: number, fields: DisputeFields): Stripe.Dispute {
  const { charge } = fields;
  const card = charge.payment_method_details?.card;
  return {
    id,
    object: "dispute",
    amount: fields.amount,
    balance_transactions: [fields.withdrawal],
    charge: charge.id,
    created,
    currency: charge.currency,
    enhanced_eligibility_types: [],
    evidence: emptyEvidence(),
    evidence_details: {
      due_by: fields.dueBy,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: "not_submitted",
    },
    intended_submission_method: null,
    // A chargeback has already taken the money back: the payment can no longer be refunded.
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: typeof charge.payment_intent === "string" ? charge.payment_intent : null,
    payment_method_details: {
      type: "card",
      card: {
        brand: card?.brand ?? "unknown",
        case_type: "chargeback",
        network: card?.network ?? card?.brand ?? "unknown",
        network_reason_code: null,
      },
    },
    reason: fields.reason,
    status: "needs_response",
  };
}
