import { z } from "zod";
import { INVOICE_KINDS } from "./invoices";
import { orderStatusSchema, SALES_PAGE_SIZE, saleSchema } from "./orders";
import { sellerProductListSchema } from "./products";

/** The seller REST API (`/api/v1`): its query shapes and the answers it adds to the dashboard's. */
export const SELLER_API_MESSAGES = {
  limit: "limit must be a whole number from 1 to 100",
  date: "Dates must look like 2026-01-31 or 2026-01-31T12:00:00Z",
  range: "from must be before to",
} as const;

const limit = z.coerce
  .number({ error: SELLER_API_MESSAGES.limit })
  .int(SELLER_API_MESSAGES.limit)
  .min(1, SELLER_API_MESSAGES.limit)
  .max(100, SELLER_API_MESSAGES.limit)
  .default(SALES_PAGE_SIZE)
  .meta({ description: "How many to answer, 1 to 100." });
const cursor = z
  .string()
  .max(200)
  .optional()
  .meta({ description: "`nextCursor` of the previous page: answers the next (older) items." });

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:\d{2})$/;
/** 2026-01-31 (midnight UTC) or an ISO 8601 date-time with its offset. */
export function parseApiDate(text: string): Date | undefined {
  if (!DATE_ONLY.test(text) && !DATE_TIME.test(text)) return undefined;
  // A day that does not exist (2026-02-30) would otherwise roll over into the next month.
  const day = text.slice(0, 10);
  const midnight = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(midnight.getTime()) || midnight.toISOString().slice(0, 10) !== day) return undefined;
  const date = new Date(DATE_ONLY.test(text) ? `${day}T00:00:00Z` : text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
const apiDate = (description: string) =>
  z
    .string()
    .max(40, SELLER_API_MESSAGES.date)
    .refine((text) => parseApiDate(text) !== undefined, SELLER_API_MESSAGES.date)
    .optional()
    .meta({ description, examples: ["2026-01-31", "2026-01-31T12:00:00Z"] });

/** A time range's ends, when both are given, are in order. */
function fromBeforeTo(query: { from?: string | undefined; to?: string | undefined }): boolean {
  const [from, to] = [query.from, query.to].map((text) => (text ? parseApiDate(text) : undefined));
  return !from || !to || from < to;
}

export const apiIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

export const apiProductListQuerySchema = z.object({ limit, before: cursor });
export const apiProductListSchema = sellerProductListSchema.extend({
  nextCursor: z
    .string()
    .nullable()
    .meta({ description: "Pass as `before` for the next page; null on the last page." }),
});

export const apiSalesQuerySchema = z
  .object({
    limit,
    before: cursor,
    productId: z.string().min(1).max(64).optional().meta({ description: "Only sales of this product." }),
    from: apiDate("Only sales made at or after this time (a date alone is midnight UTC)."),
    to: apiDate("Only sales made before this time (a date alone is midnight UTC)."),
  })
  .refine(fromBeforeTo, { message: SELLER_API_MESSAGES.range, path: ["to"] });
export type ApiSalesQuery = z.infer<typeof apiSalesQuerySchema>;

/** A sale's invoice (the newest version of it): GET /api/v1/invoices/{id} has the document. */
export const apiSaleInvoiceSchema = z.object({
  id: z.string(),
  /** As printed: the store's prefix and six digits, e.g. INV-000042. */
  number: z.string(),
});

/** One sale as the API shows it: the dashboard's row plus what a tool needs to act on it. */
export const apiSaleSchema = saleSchema.extend({
  status: orderStatusSchema,
  /** Null once the product was deleted (the sale keeps its title). */
  productId: z.string().nullable(),
  currency: z.string(),
  refundedAt: z.string().nullable(),
  /** The buyer's downloads count until then. */
  downloadWindowEndsAt: z.string(),
  /** A membership's paid period: the membership (GET /api/v1/memberships/{id}); null for a one-time sale. */
  membershipId: z.string().nullable(),
  /** The sale's invoice; null for a free claim, a $0 period, or a sale from before invoices existed. */
  invoice: apiSaleInvoiceSchema.nullable(),
});
export type ApiSale = z.infer<typeof apiSaleSchema>;

export const apiSalePageSchema = z.object({
  sales: z.array(apiSaleSchema),
  nextCursor: z.string().nullable().meta({
    description: "Pass as `before` (with the same filters) for the next page; null on the last page.",
  }),
});
export type ApiSalePage = z.infer<typeof apiSalePageSchema>;

/** A party of an invoice (the seller or the buyer), as the document names them when it was issued. */
export const apiInvoicePartySchema = z.object({
  name: z.string().nullable(),
  businessName: z.string().nullable(),
  /** Address lines as printed, the country's name last. */
  address: z.array(z.string()),
  /** ISO 3166 country code, when known. */
  country: z.string().nullable(),
  /** VAT number or other tax ID. */
  taxId: z.string().nullable(),
  /** When the EU's VIES confirmed the buyer's VAT number (ISO 8601); null when it was not checked. */
  taxIdCheckedAt: z.string().nullable(),
  email: z.string().nullable(),
});

export const apiInvoiceLineSchema = z.object({
  description: z.string(),
  /** A membership payment's period (ISO 8601); null for a one-time sale. */
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  quantity: z.number().int(),
  netCents: z.number().int(),
  taxCents: z.number().int(),
  totalCents: z.number().int(),
  /** "VAT 19% (Germany)"; null without tax. */
  taxLabel: z.string().nullable(),
});

/**
 * An invoice or credit note as the API and the `invoice.issued` webhook show it: the stored document,
 * as issued (docs/tax-and-invoices.md). A credit note's amounts are negative.
 */
export const apiInvoiceSchema = z.object({
  /** This version's id; a corrected invoice is a new version with a new id and the same number. */
  id: z.string(),
  kind: z.enum(INVOICE_KINDS),
  /** As printed: the store's prefix and six digits (INV-000042; a credit note INV-CN-000007). */
  number: z.string(),
  /** 1, then 2, 3... for each correction of the buyer's billing details. */
  version: z.number().int(),
  /** The document's date: the sale's for an invoice (kept by corrections), the refund's for a credit note. */
  issuedAt: z.string(),
  paidAt: z.string(),
  orderId: z.string(),
  /** A credit note's invoice (the version it credited); null for an invoice. */
  creditedInvoiceId: z.string().nullable(),
  seller: apiInvoicePartySchema,
  buyer: apiInvoicePartySchema,
  lines: z.array(apiInvoiceLineSchema),
  currency: z.string(),
  netCents: z.number().int(),
  /** Stripe Tax's tax, as at the sale (inside totalCents). */
  taxCents: z.number().int(),
  totalCents: z.number().int(),
  reverseCharge: z.boolean(),
  /** What the document says of the tax besides its lines: the reverse-charge note; null otherwise. */
  taxNote: z.string().nullable(),
  /** GET it with your API key for the PDF. */
  pdfUrl: z.string(),
});
export type ApiInvoice = z.infer<typeof apiInvoiceSchema>;

export const apiInvoicesQuerySchema = z
  .object({
    limit,
    before: cursor,
    orderId: z.string().min(1).max(64).optional().meta({ description: "Only the documents of this sale." }),
    kind: z
      .enum(INVOICE_KINDS)
      .optional()
      .meta({ description: "Only invoices (`invoice`) or only credit notes (`credit_note`)." }),
    from: apiDate("Only documents issued at or after this time (a date alone is midnight UTC)."),
    to: apiDate("Only documents issued before this time (a date alone is midnight UTC)."),
  })
  .refine(fromBeforeTo, { message: SELLER_API_MESSAGES.range, path: ["to"] });
export type ApiInvoicesQuery = z.infer<typeof apiInvoicesQuerySchema>;

export const apiInvoicePageSchema = z.object({
  invoices: z.array(apiInvoiceSchema),
  nextCursor: z.string().nullable().meta({
    description: "Pass as `before` (with the same filters) for the next page; null on the last page.",
  }),
});
export type ApiInvoicePage = z.infer<typeof apiInvoicePageSchema>;
