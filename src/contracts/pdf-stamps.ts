import { z } from "zod";

const MB = 1024 * 1024;

/**
 * Stamped PDFs: each buyer's copy of a product's PDFs carries their email and order on every page.
 * The stamp is an incremental update appended to the original (server/features/pdf-stamps), so
 * memory follows the page count, not the file size (bench/stamp-pdf.ts, 2 vCPU under load: 50 MB and
 * 500 pages in 1.0 s, +41 MB peak RSS; 250 MB and 2,500 pages in 3.3-4.3 s, +53-66 MB; 10,000 pages in
 * 5.1 s, +62 MB). The limits bound the time and temporary disk a stamp takes: the size is the largest
 * product file, the page count keeps a stamp to seconds, and a stamp still running after `maxSeconds`
 * (over ten times the slowest measured) is given up. The stamped copy's own bound (the original plus
 * 2 KB a page) is in stamp-pdf.ts.
 */
export const PDF_STAMP_LIMITS = {
  /** Larger PDFs are delivered unstamped (the seller is told on the edit page and per sale). */
  maxBytes: 250 * MB,
  maxPages: 10_000,
  /** A stamp still not done after this is given up: the file is delivered unstamped. */
  maxSeconds: 60,
  /** The most recent stamping problems the edit page lists. */
  problemsShown: 20,
} as const;

/** The line on every page of a buyer's copy. */
export const stampLine = (email: string, orderId: string): string =>
  `Licensed to ${email} · order ${orderId}`;

const sizeLabel = (bytes: number) => `${Math.round(bytes / MB)} MB`;

export const PDF_STAMP_MESSAGES = {
  settingLabel: "Stamp PDFs with the buyer's email",
  settingHint: `Each buyer's copy of a PDF carries "Licensed to {email} · order {id}" in small grey text at the foot of every page, made right after the sale.`,
  limits: `PDFs up to ${sizeLabel(PDF_STAMP_LIMITS.maxBytes)} and ${PDF_STAMP_LIMITS.maxPages.toLocaleString("en-US")} pages are stamped. Other files, and PDFs that are larger, encrypted or damaged, are delivered as you uploaded them.`,
  /** Why one file was delivered unstamped. */
  reasons: {
    encrypted: "The PDF is encrypted or password-protected, so it can't be stamped.",
    damaged: "The PDF is damaged or built in a way that can't be stamped.",
    "too-big": `The PDF is larger than ${sizeLabel(PDF_STAMP_LIMITS.maxBytes)}.`,
    "too-many-pages": `The PDF has more than ${PDF_STAMP_LIMITS.maxPages.toLocaleString("en-US")} pages.`,
    "too-large-copy":
      "The PDF's pages share their content in a way that would make each buyer's copy many times larger than the original.",
    "too-slow": `The PDF took longer than ${PDF_STAMP_LIMITS.maxSeconds} seconds to stamp.`,
    "not-pdf": "The file is not a PDF.",
    "kept-failing": "Stamping kept failing (storage was unavailable); we stopped retrying.",
  },
  fallback: "The buyer got the file as you uploaded it, without the stamp.",
  /** Next to a PDF on the edit page while the switch is off. */
  stampingOff: "Delivered as uploaded: stamping is off",
  /** A download asked for while the buyer's copy is still being made. */
  preparing: "Your copy is being stamped with your email. Try again in a few seconds.",
} as const;

export type PdfStampFailure = keyof typeof PDF_STAMP_MESSAGES.reasons;

/** What the edit page shows about stamping: which files can be stamped, and stamps that failed. */
export const productStampingSchema = z.object({
  stampPdfs: z.boolean(),
  files: z.array(
    z.object({
      name: z.string(),
      sizeBytes: z.number().nullable(),
      /** Null when the file will be stamped; else why not. */
      notStamped: z.string().nullable(),
    }),
  ),
  stampedCount: z.number(),
  pendingCount: z.number(),
  problems: z.array(
    z.object({
      orderId: z.string(),
      email: z.string(),
      fileName: z.string(),
      reason: z.string(),
      at: z.string(),
    }),
  ),
});
export type ProductStamping = z.infer<typeof productStampingSchema>;
