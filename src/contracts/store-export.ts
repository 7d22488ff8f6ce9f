import { z } from "zod";
import { ARCHIVE_RECORD_FILES, type ArchiveRecordKind } from "./store-archive";

/**
 * "Export my store" (docs/export-format.md): the creator asks from Settings, a job builds the archive,
 * an email brings a link valid 7 days. The archive's own format is contracts/store-archive.ts.
 */
export const STORE_EXPORT_RULES = {
  /** The archive and its link last this long after it is ready. */
  keepDays: 7,
  /** Exports started within 24 hours (failed ones do not count). */
  perDay: 3,
  /** How often the settings page asks while one is being built. */
  pollMs: 2000,
} as const;

export const STORE_EXPORT_MESSAGES = {
  alreadyBuilding: "Your store export is already being built. We'll email you when it's ready.",
  dailyLimit: `You can export your store ${STORE_EXPORT_RULES.perDay} times in 24 hours. Try again later.`,
  linkInvalid: "This export link is not valid. It may have been copied incompletely.",
  linkExpired: `This export link has expired: archives are kept ${STORE_EXPORT_RULES.keepDays} days. Export your store again from Settings.`,
  failed: "We couldn't finish your store export. Please try again.",
  loadFailed: "Could not load your store export.",
  started: "Export started. We'll email you a link when it's ready.",
} as const;

export const STORE_EXPORT_STATUSES = ["queued", "building", "ready", "failed", "expired"] as const;
export type StoreExportStatus = (typeof STORE_EXPORT_STATUSES)[number];

export const storeExportSchema = z.object({
  id: z.string(),
  status: z.enum(STORE_EXPORT_STATUSES),
  progress: z.object({
    /** Stored files copied into the archive so far, and in all. */
    bytesDone: z.number().int(),
    bytesTotal: z.number().int(),
    /** Records written so far (products, orders, customers…). */
    recordsDone: z.number().int(),
  }),
  /** The archive's size once ready. */
  sizeBytes: z.number().int().nullable(),
  /** Why it failed, in words for the creator. */
  error: z.string().nullable(),
  createdAt: z.string(),
  readyAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** The signed download link while ready (the same one the email carries). */
  downloadUrl: z.string().nullable(),
});
export type StoreExport = z.infer<typeof storeExportSchema>;

export const storeExportStateSchema = z.object({
  /** The newest export, if any. */
  latest: storeExportSchema.nullable(),
  /** Exports that count towards the daily limit, and when the next may start if none is left. */
  startedToday: z.number().int(),
  nextAllowedAt: z.string().nullable(),
});
export type StoreExportState = z.infer<typeof storeExportStateSchema>;

// --- the seller API's export endpoints -----------------------------------------------------------------

/** The record kinds `/api/v1/export/{kind}` pages through (the archive's analytics are archive-only). */
export const EXPORT_API_KINDS = [
  "products",
  "discount-codes",
  "customers",
  "orders",
  "license-keys",
  "memberships",
  "posts",
  "invoices",
  "webhooks",
] as const satisfies readonly ArchiveRecordKind[];
export type ExportApiKind = (typeof EXPORT_API_KINDS)[number];

export const EXPORT_API_LIMITS = { defaultLimit: 100, maxLimit: 500 } as const;
const limitMessage = `limit must be a whole number from 1 to ${EXPORT_API_LIMITS.maxLimit}`;

export const exportApiQuerySchema = z.object({
  cursor: z
    .string()
    .max(500)
    .optional()
    .meta({ description: "`nextCursor` of the previous page: answers the next records." }),
  limit: z.coerce
    .number({ error: limitMessage })
    .int(limitMessage)
    .min(1, limitMessage)
    .max(EXPORT_API_LIMITS.maxLimit, limitMessage)
    .default(EXPORT_API_LIMITS.defaultLimit)
    .meta({ description: `How many records to answer, 1 to ${EXPORT_API_LIMITS.maxLimit}.` }),
});
export type ExportApiQuery = z.infer<typeof exportApiQuerySchema>;

const nextCursor = z
  .string()
  .nullable()
  .meta({ description: "Pass as `cursor` for the next page; null on the last page." });

/** Each kind's page: `{ data, nextCursor }`, its records the archive's own schema. */
export const exportApiPageSchemas = Object.fromEntries(
  EXPORT_API_KINDS.map((kind) => [
    kind,
    z.object({ data: z.array(ARCHIVE_RECORD_FILES[kind].schema), nextCursor }),
  ]),
) as {
  [K in ExportApiKind]: z.ZodObject<{
    data: z.ZodArray<(typeof ARCHIVE_RECORD_FILES)[K]["schema"]>;
    nextCursor: typeof nextCursor;
  }>;
};
