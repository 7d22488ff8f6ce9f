import { z } from "zod";

/**
 * The operator console's shared words and shapes (docs/operator.md). Operators are granted from the
 * command line only; the console asks for two-factor authentication on top.
 */
export const OPERATOR_MESSAGES = {
  twoFactorRequired:
    "The operator console needs two-factor authentication: turn it on in Settings → Security, then sign in again.",
  reasonRequired: "Say why: every operator action records its reason.",
} as const;

/** Every operator action needs a reason: it is kept in the audit log and shown to the seller where it concerns them. */
export const actionReasonSchema = z
  .string()
  .trim()
  .min(1, OPERATOR_MESSAGES.reasonRequired)
  .max(2000, "Keep the reason under 2,000 characters.");

export const operatorMeSchema = z.object({
  id: z.string(),
  email: z.string(),
});
export type OperatorMe = z.infer<typeof operatorMeSchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  actorEmail: z.string(),
  action: z.string(),
  sellerId: z.string().nullable(),
  productId: z.string().nullable(),
  reportId: z.string().nullable(),
  reason: z.string(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditLogPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: z.number().int().nullable(),
});
export type AuditLogPage = z.infer<typeof auditLogPageSchema>;

export const auditLogQuerySchema = z.object({
  sellerId: z.string().min(1).max(100).optional(),
  reportId: z.string().min(1).max(100).optional(),
  before: z.coerce.number().int().positive().optional(),
});
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;
