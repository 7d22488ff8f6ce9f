import { z } from "zod";
import { actionReasonSchema } from "./operator";

/**
 * Reports and takedowns (docs/operator.md, "Reports"): what a visitor reports, what an operator sees and
 * decides, what the seller sees and answers. The report form's messages are English here (the JSON
 * answers, tests) and in the `reports` catalogues for the page (REPORT_MESSAGE_KEYS).
 */

export const REPORT_REASONS = ["copyright", "malware", "illegal", "scam", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_STATUSES = ["new", "in_review", "actioned", "dismissed"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
/** A report still being worked on: a duplicate of it adds nothing, the seller may answer it. */
export const OPEN_REPORT_STATUSES = ["new", "in_review"] as const satisfies readonly ReportStatus[];

/** The dashboard's and the console's words (English; the report form speaks the buyer's language). */
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  copyright: "Copyright",
  malware: "Malware or harmful file",
  illegal: "Illegal content",
  scam: "Scam or misleading",
  other: "Other",
};
export const REPORT_STATUS_LABELS: Record<ReportStatus, string> = {
  new: "New",
  in_review: "In review",
  actioned: "Actioned",
  dismissed: "Dismissed",
};

export const REPORT_LIMITS = {
  detailsChars: 5000,
  fieldChars: 500,
  contactChars: 1000,
  emailChars: 254,
  answerChars: 5000,
  /** Reports a network may send in an hour, and reports one email may send in an hour. */
  perIpPerHour: 10,
  perEmailPerHour: 5,
  /** The operator's queue and the seller's list, a page at a time. */
  pageSize: 25,
} as const;

/** What the form says, by name: English here, translated by the `reports` catalogues (REPORT_MESSAGE_KEYS). */
export const REPORT_MESSAGES = {
  reasonRequired: "Choose what is wrong.",
  detailsRequired: "Tell us what is wrong.",
  detailsTooLong: "Keep the details under 5,000 characters.",
  emailInvalid: "Enter a valid email address.",
  fieldTooLong: "Keep this under 500 characters.",
  contactTooLong: "Keep this under 1,000 characters.",
  workRequired: "Describe the copyrighted work.",
  locationRequired: "Say where the material you report is.",
  nameRequired: "Enter your full legal name.",
  contactRequired: "Enter your postal address and phone number.",
  goodFaithRequired: "A copyright notice needs this statement.",
  accuracyRequired: "A copyright notice needs this statement.",
  signatureRequired: "Type your full name as your signature.",
  rateLimited: "Too many reports from you just now. Please try again in an hour.",
  alreadyReviewed: "You have already reported this, and we are reviewing it. We will be in touch by email.",
  received: "Thank you. We have received your report and will review it.",
} as const;
export type ReportMessage = keyof typeof REPORT_MESSAGES;

/** Each message's key in the `reports` catalogues (reportsEn says each exactly as REPORT_MESSAGES). */
export const REPORT_MESSAGE_KEYS = {
  reasonRequired: "report.problem.reasonRequired",
  detailsRequired: "report.problem.detailsRequired",
  detailsTooLong: "report.problem.detailsTooLong",
  emailInvalid: "report.problem.emailInvalid",
  fieldTooLong: "report.problem.fieldTooLong",
  contactTooLong: "report.problem.contactTooLong",
  workRequired: "report.problem.workRequired",
  locationRequired: "report.problem.locationRequired",
  nameRequired: "report.problem.nameRequired",
  contactRequired: "report.problem.contactRequired",
  goodFaithRequired: "report.problem.goodFaithRequired",
  accuracyRequired: "report.problem.accuracyRequired",
  signatureRequired: "report.problem.signatureRequired",
  rateLimited: "report.problem.rateLimited",
  alreadyReviewed: "report.sent.alreadyReviewed",
  received: "report.sent.received",
} as const satisfies Record<ReportMessage, string>;

/** The form's fields, as posted (names of the inputs). */
export const REPORT_FIELDS = [
  "reason",
  "details",
  "email",
  "work",
  "location",
  "fullName",
  "contact",
  "goodFaith",
  "accuracy",
  "signature",
] as const;
export type ReportField = (typeof REPORT_FIELDS)[number];
export type ReportFormValues = Record<ReportField, string>;

/** What a copyright report adds: the elements of a DMCA notice (17 U.S.C. § 512(c)(3)). */
export interface DmcaNotice {
  /** The copyrighted work claimed to be infringed. */
  work: string;
  /** Where the material is (prefilled with the product's or store's address). */
  location: string;
  fullName: string;
  /** Postal address and phone number. */
  contact: string;
  /** "I have a good faith belief that the use is not authorized..." */
  goodFaith: true;
  /** "The information is accurate, and under penalty of perjury I am authorized to act..." */
  accuracy: true;
  /** The electronic signature: the name typed. */
  signature: string;
}

export interface CheckedReport {
  reason: ReportReason;
  details: string;
  email: string;
  dmca: DmcaNotice | null;
}

export type ReportCheck =
  | { ok: true; report: CheckedReport }
  | { ok: false; problems: Partial<Record<ReportField, ReportMessage>> };

const EMAIL = z.email();
const checked = (value: string | undefined) => value === "on" || value === "true" || value === "yes";

/**
 * The report form's rules, field by field (every problem at once, so the page marks each field): a
 * reason, details (optional for copyright, whose notice says it), a valid email, and for copyright every
 * element of a DMCA notice.
 */
export function checkReportForm(values: Partial<ReportFormValues>): ReportCheck {
  const text = (field: ReportField) => (values[field] ?? "").trim();
  const problems: Partial<Record<ReportField, ReportMessage>> = {};
  const reason = REPORT_REASONS.find((one) => one === text("reason"));
  if (!reason) problems.reason = "reasonRequired";
  const details = text("details");
  if (details.length > REPORT_LIMITS.detailsChars) problems.details = "detailsTooLong";
  else if (details === "" && reason !== "copyright") problems.details = "detailsRequired";
  const email = text("email").toLowerCase();
  if (email.length > REPORT_LIMITS.emailChars || !EMAIL.safeParse(email).success)
    problems.email = "emailInvalid";

  let dmca: DmcaNotice | null = null;
  if (reason === "copyright") {
    const required = (field: ReportField, missing: ReportMessage, max: number = REPORT_LIMITS.fieldChars) => {
      const value = text(field);
      if (value === "") problems[field] = missing;
      else if (value.length > max)
        problems[field] = max === REPORT_LIMITS.fieldChars ? "fieldTooLong" : "contactTooLong";
      return value;
    };
    const work = required("work", "workRequired", REPORT_LIMITS.contactChars);
    const location = required("location", "locationRequired");
    const fullName = required("fullName", "nameRequired");
    const contact = required("contact", "contactRequired", REPORT_LIMITS.contactChars);
    const signature = required("signature", "signatureRequired");
    if (!checked(values.goodFaith)) problems.goodFaith = "goodFaithRequired";
    if (!checked(values.accuracy)) problems.accuracy = "accuracyRequired";
    dmca = { work, location, fullName, contact, goodFaith: true, accuracy: true, signature };
  }
  if (!reason || Object.keys(problems).length > 0) return { ok: false, problems };
  return { ok: true, report: { reason, details, email, dmca } };
}

// --- The seller's answer -------------------------------------------------------------------------

export const REPORT_ANSWER_MESSAGES = {
  answerRequired: "Write your answer.",
  answerTooLong: "Keep your answer under 5,000 characters.",
  counterNoticeRequired: "A counter-notice needs your name, address, phone, signature and both statements.",
  alreadyAnswered: "You have already answered this report.",
  reportClosed: "This report is closed.",
  alreadyInReview: "The report is already in review.",
  notFound: "Report not found",
} as const;

/** The statements a counter-notice makes (17 U.S.C. § 512(g)(3)(C) and (D)), as the seller ticks them. */
export const COUNTER_NOTICE_STATEMENTS = {
  mistake:
    "I swear, under penalty of perjury, that I have a good faith belief that the material was removed or disabled as a result of mistake or misidentification of the material to be removed or disabled.",
  jurisdiction:
    "I consent to the jurisdiction of the Federal District Court for the judicial district in which my address is located (or, if my address is outside the United States, any judicial district in which Flatfee may be found), and I will accept service of process from the person who provided the notification, or their agent.",
} as const;

/** The statements of a copyright notice (17 U.S.C. § 512(c)(3)(A)(v) and (vi)), as the operator reads them (English). */
export const DMCA_STATEMENTS = {
  goodFaith:
    "I have a good faith belief that use of the material in the manner complained of is not authorized by the copyright owner, its agent, or the law.",
  accuracy:
    "The information in this notice is accurate, and under penalty of perjury, I am the owner of the copyright, or authorized to act on behalf of the owner.",
} as const;

/** A seller's counter-notice to a copyright report: the elements 17 U.S.C. § 512(g)(3) asks for. */
export const counterNoticeSchema = z.object({
  fullName: z.string().trim().min(1, "Enter your full legal name.").max(REPORT_LIMITS.fieldChars),
  address: z.string().trim().min(1, "Enter your postal address.").max(REPORT_LIMITS.contactChars),
  phone: z.string().trim().min(1, "Enter your phone number.").max(100),
  /** "Under penalty of perjury, I have a good faith belief the material was removed or disabled by mistake or misidentification." */
  mistake: z.literal(true, { error: "A counter-notice needs this statement." }),
  /** Consent to the jurisdiction of the federal court, and to accept service of process from the claimant. */
  jurisdiction: z.literal(true, { error: "A counter-notice needs this statement." }),
  signature: z.string().trim().min(1, "Type your full name as your signature.").max(REPORT_LIMITS.fieldChars),
});
export type CounterNotice = z.infer<typeof counterNoticeSchema>;

export const reportAnswerSchema = z.object({
  message: z
    .string()
    .trim()
    .min(1, REPORT_ANSWER_MESSAGES.answerRequired)
    .max(REPORT_LIMITS.answerChars, REPORT_ANSWER_MESSAGES.answerTooLong),
  counterNotice: counterNoticeSchema.optional(),
});
export type ReportAnswerInput = z.infer<typeof reportAnswerSchema>;

// --- Shapes of the API -----------------------------------------------------------------------------

const reasonSchema = z.enum(REPORT_REASONS);
const statusSchema = z.enum(REPORT_STATUSES);

export const dmcaNoticeSchema = z.object({
  work: z.string(),
  location: z.string(),
  fullName: z.string(),
  contact: z.string(),
  goodFaith: z.literal(true),
  accuracy: z.literal(true),
  signature: z.string(),
});

const answerShape = z
  .object({
    message: z.string(),
    counterNotice: counterNoticeSchema.nullable(),
    answeredAt: z.string(),
  })
  .nullable();

/** A report in the operator's queue. */
export const operatorReportSummarySchema = z.object({
  id: z.string(),
  reason: reasonSchema,
  status: statusSchema,
  sellerId: z.string(),
  storeName: z.string().nullable(),
  productId: z.string().nullable(),
  productTitle: z.string().nullable(),
  reporterEmail: z.string(),
  createdAt: z.string(),
  answered: z.boolean(),
  /** A counter-notice's 10 business days have passed and the product is still taken down: the operator may restore it. */
  readyToRestore: z.boolean(),
});
export type OperatorReportSummary = z.infer<typeof operatorReportSummarySchema>;

export const operatorReportsQuerySchema = z.object({
  status: statusSchema.optional(),
  /** `ready`: only the reports ready to restore. */
  restore: z.literal("ready").optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const operatorReportsPageSchema = z.object({
  reports: z.array(operatorReportSummarySchema),
  page: z.number().int(),
  hasMore: z.boolean(),
  /** How many reports each status holds (the filter's counts). */
  counts: z.record(statusSchema, z.number().int()),
  /** How many reports are ready to restore (a marker and a filter of the queue). */
  readyToRestore: z.number().int(),
});
export type OperatorReportsPage = z.infer<typeof operatorReportsPageSchema>;

export const reportedFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  originalName: z.string(),
  declaredType: z.string(),
  /** The format the checks found in the content. */
  contentType: z.string().nullable(),
  sizeBytes: z.number().nullable(),
  /** attached: it passed every check at upload (a refused file is never kept). */
  status: z.string(),
  checkedAt: z.string().nullable(),
});

export const operatorReportSchema = z.object({
  id: z.string(),
  reason: reasonSchema,
  status: statusSchema,
  statusReason: z.string().nullable(),
  details: z.string(),
  reporterEmail: z.string(),
  reporterLocale: z.string(),
  dmca: dmcaNoticeSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  answer: answerShape,
  /**
   * The counter-notice sent on to the claimant: when, and from when (10 business days on) the product
   * may be restored; whether it is taken down now, and whether that date has passed while it is.
   */
  counterNoticeForwarded: z
    .object({
      forwardedAt: z.string(),
      restoreAfter: z.string(),
      productTakenDown: z.boolean(),
      readyToRestore: z.boolean(),
    })
    .nullable(),
  seller: z.object({ id: z.string(), email: z.string().nullable(), storeName: z.string().nullable() }),
  /** The reported product (null for a store's report); `exists` false once deleted. */
  product: z
    .object({
      id: z.string().nullable(),
      title: z.string(),
      url: z.string().nullable(),
      exists: z.boolean(),
      isActive: z.boolean().nullable(),
      files: z.array(reportedFileSchema),
    })
    .nullable(),
  /** What the upload checks are, for the files above. */
  fileChecks: z.string(),
  /** Earlier and later reports about the same seller, newest first (up to 50). */
  sellerHistory: z.array(
    z.object({
      id: z.string(),
      reason: reasonSchema,
      status: statusSchema,
      statusReason: z.string().nullable(),
      productTitle: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
});
export type OperatorReport = z.infer<typeof operatorReportSchema>;

export const reportStatusChangeSchema = z.discriminatedUnion("status", [
  z.object({ status: z.literal("in_review"), reason: z.string().trim().max(2000).optional() }),
  z.object({ status: z.literal("dismissed"), reason: actionReasonSchema }),
  z.object({ status: z.literal("actioned"), reason: actionReasonSchema }),
]);
export type ReportStatusChange = z.infer<typeof reportStatusChangeSchema>;

/** A report as the reported seller sees it: never the reporter's email, except a copyright claimant's. */
export const sellerReportSchema = z.object({
  id: z.string(),
  reason: reasonSchema,
  status: statusSchema,
  statusReason: z.string().nullable(),
  details: z.string(),
  productId: z.string().nullable(),
  productTitle: z.string().nullable(),
  createdAt: z.string(),
  /** A copyright report's notice as the seller receives it: the claimant's name and email, not their address or phone. */
  claim: z
    .object({
      work: z.string(),
      location: z.string(),
      claimantName: z.string(),
      claimantEmail: z.string(),
      signature: z.string(),
    })
    .nullable(),
  answer: answerShape,
  canAnswer: z.boolean(),
});
export type SellerReport = z.infer<typeof sellerReportSchema>;

export const sellerReportsPageSchema = z.object({
  reports: z.array(sellerReportSchema),
  page: z.number().int(),
  hasMore: z.boolean(),
});
export const sellerReportsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
