import { z } from "zod";
import { formatMoney } from "./money";

/**
 * Disputes (chargebacks) of one-time sales (docs/disputes.md): what the order shows, the dispute page, the
 * evidence the creator reviews and submits, and the words both the server and the web app use.
 */

/** What a sale shows of its dispute: open (its downloads and key suspended), won (restored) or lost. */
export const saleDisputeStatusSchema = z.enum(["open", "won", "lost"]);
export type SaleDisputeStatus = z.infer<typeof saleDisputeStatusSchema>;

export const saleDisputeSchema = z.object({ id: z.string(), status: saleDisputeStatusSchema });
export type SaleDispute = z.infer<typeof saleDisputeSchema>;

export const SALE_DISPUTE_LABELS: Record<SaleDisputeStatus, string> = {
  open: "Disputed",
  won: "Dispute won",
  lost: "Dispute lost",
};

/** The sale's dispute states that hold its downloads and license key: open (suspended) and lost (revoked). */
export const disputeWithholdsAccess = (status: SaleDisputeStatus | null | undefined) =>
  status === "open" || status === "lost";

/** Where a Stripe dispute status leaves the sale. */
export function saleDisputeStatusOf(stripeStatus: string): SaleDisputeStatus {
  // An inquiry closed without a chargeback: the seller kept the money, the buyer keeps access.
  if (stripeStatus === "won" || stripeStatus === "warning_closed") return "won";
  if (stripeStatus === "lost") return "lost";
  return "open";
}

/** Auto-submit sends the assembled evidence this long before Stripe's deadline. */
export const DISPUTE_RULES = { autoSubmitBeforeDueMs: 48 * 60 * 60 * 1000 } as const;

/**
 * The text fields of Stripe's dispute evidence the creator reviews (each at most Stripe's 20,000
 * characters). The file fields (receipt, refund_policy, uncategorized_file) are the assembled PDF's id,
 * set on submission.
 */
export const DISPUTE_EVIDENCE_FIELDS = [
  "customer_name",
  "customer_email_address",
  "customer_purchase_ip",
  "product_description",
  "service_date",
  "access_activity_log",
  "refund_policy_disclosure",
  "refund_refusal_explanation",
  "uncategorized_text",
] as const;
export type DisputeEvidenceField = (typeof DISPUTE_EVIDENCE_FIELDS)[number];

export const DISPUTE_EVIDENCE_LABELS: Record<DisputeEvidenceField, { label: string; hint: string }> = {
  customer_name: { label: "Customer name", hint: "As the buyer gave it at checkout." },
  customer_email_address: { label: "Customer email", hint: "Where the receipt and download link went." },
  customer_purchase_ip: { label: "Customer IP address", hint: "Leave empty when not known." },
  product_description: { label: "Product description", hint: "What was sold and how it was delivered." },
  service_date: { label: "Date of purchase", hint: "The day the buyer paid and got the download." },
  access_activity_log: {
    label: "Download and license activity",
    hint: "Each download (time, file, country, browser) and each verification of the license key.",
  },
  refund_policy_disclosure: {
    label: "Terms and what the buyer accepted",
    hint: "The download and refund terms, where the buyer saw them, and what they accepted at checkout.",
  },
  refund_refusal_explanation: {
    label: "Why no refund was given",
    hint: "Optional: add your own account of any conversation with the buyer.",
  },
  uncategorized_text: { label: "Anything else", hint: "Optional." },
};

export const DISPUTE_LIMITS = {
  evidenceFieldMaxLength: 20_000,
  /** The evidence lists at most this many of the newest downloads and license verifications each, and counts the rest. */
  activityListed: 200,
  /**
   * A license key's verification log is kept this long: the longest a card network lets a buyer dispute a
   * payment (Visa allows up to 540 days in some cases), so every dispute can still show the key's use.
   */
  verificationLogDays: 540,
  /**
   * And at most this many of a key's newest verifications: a key checked in a loop (leaked, or a broken
   * client) adds thousands a day, while the evidence lists the newest 200.
   */
  verificationsKeptPerKey: 1_000,
} as const;

export const DISPUTE_MESSAGES = {
  notFound: "Dispute not found",
  alreadySubmitted: "This dispute's evidence was already submitted. Stripe and the bank are reviewing it.",
  closed: "This dispute is closed, so its evidence can no longer be changed or submitted.",
  pastDue: "The deadline to answer this dispute has passed.",
  fieldTooLong: `Each evidence field can be at most ${DISPUTE_LIMITS.evidenceFieldMaxLength.toLocaleString("en-US")} characters`,
  submittedTitle: "Evidence submitted",
  submitted: "Stripe sends it to the buyer's bank. You'll get an email when the bank decides.",
  savedTitle: "Draft saved",
  autoSubmitOn: "We'll submit this evidence for you 48 hours before the deadline unless you submit it first.",
  autoSubmitOff: "Turn on to have us submit this evidence 48 hours before the deadline.",
  loadFailed: "We couldn't load this dispute.",
  submitConfirm:
    "Submit this evidence to Stripe? Evidence can be submitted once: it can't be changed afterwards.",
  /** What a buyer sees on the download page and a license check while the sale is disputed. */
  buyerSuspended:
    "This purchase is disputed with your bank, so its downloads are suspended until the dispute is resolved.",
  buyerLost:
    "This purchase was reversed by your bank after a dispute, so its download is no longer available.",
} as const;

/** Stripe's dispute reasons, as a creator reads them. */
export const DISPUTE_REASON_LABELS: Record<string, string> = {
  bank_cannot_process: "Bank cannot process",
  check_returned: "Check returned",
  credit_not_processed: "Credit not processed",
  customer_initiated: "Customer initiated",
  debit_not_authorized: "Debit not authorized",
  duplicate: "Duplicate",
  fraudulent: "Fraudulent",
  general: "General",
  incorrect_account_details: "Incorrect account details",
  insufficient_funds: "Insufficient funds",
  noncompliant: "Noncompliant",
  product_not_received: "Product not received",
  product_unacceptable: "Product unacceptable",
  subscription_canceled: "Subscription canceled",
  unrecognized: "Unrecognized",
};
export const disputeReasonLabel = (reason: string) =>
  DISPUTE_REASON_LABELS[reason] ?? reason.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

/** Stripe's dispute statuses, as a creator reads them. */
export const DISPUTE_STATUS_LABELS: Record<string, string> = {
  needs_response: "Needs your response",
  under_review: "Under review",
  won: "Won",
  lost: "Lost",
  warning_needs_response: "Inquiry: needs your response",
  warning_under_review: "Inquiry under review",
  warning_closed: "Inquiry closed",
};
export const disputeStatusLabel = (status: string) => DISPUTE_STATUS_LABELS[status] ?? status;

export const disputeEvidenceSchema = z.object(
  Object.fromEntries(
    DISPUTE_EVIDENCE_FIELDS.map((field) => [
      field,
      z.string().max(DISPUTE_LIMITS.evidenceFieldMaxLength, DISPUTE_MESSAGES.fieldTooLong),
    ]),
  ) as Record<DisputeEvidenceField, z.ZodString>,
);
export type DisputeEvidence = z.infer<typeof disputeEvidenceSchema>;

/** The dispute page: the dispute, its sale, the evidence (the creator's draft, else as assembled). */
export const disputeViewSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  productTitle: z.string(),
  customerEmail: z.string(),
  amountCents: z.number(),
  currency: z.string(),
  reason: z.string(),
  /** Stripe's status: needs_response, under_review, won, lost... */
  status: z.string(),
  dueBy: z.string().nullable(),
  autoSubmit: z.boolean(),
  submittedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  createdAt: z.string(),
  /** Open to answer: needs a response, nothing submitted, not closed. */
  canSubmit: z.boolean(),
  evidence: disputeEvidenceSchema,
  /** GET it (signed in) for the evidence PDF as it would be submitted now. */
  pdfPath: z.string(),
});
export type DisputeView = z.infer<typeof disputeViewSchema>;

/** Saving the draft and the auto-submit choice. */
export const disputeDraftSchema = z.object({
  evidence: disputeEvidenceSchema.partial().optional(),
  autoSubmit: z.boolean().optional(),
});
export type DisputeDraft = z.infer<typeof disputeDraftSchema>;

export const disputeSubmitSchema = z.object({ evidence: disputeEvidenceSchema.partial().optional() });

/** The seller API's and webhooks' view of a sale's dispute (snake_case in webhooks). */
export const apiDisputeSchema = z.object({
  id: z.string(),
  status: z.string(),
  reason: z.string(),
  amountCents: z.number(),
  currency: z.string(),
  dueBy: z.string().nullable(),
  submittedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
});
export type ApiDispute = z.infer<typeof apiDisputeSchema>;

/** "$19.99 disputed (Fraudulent)": the emails' and the page's summary line. */
export const disputeSummary = (amountCents: number, currency: string, reason: string) =>
  `${formatMoney(amountCents, currency)} disputed (${disputeReasonLabel(reason)})`;
