import { z } from "zod";
import type { BillingAddress, TaxIdCheck } from "./tax";

/**
 * Invoices and credit notes (docs/tax-and-invoices.md, "Invoices and credit notes"): every paid order
 * gets an invoice, numbered per seller without gaps; a refund gets a credit note with a number of its
 * own. Documents are immutable snapshots; a buyer's billing correction is the next version of the same
 * number.
 */

export const INVOICE_KINDS = ["invoice", "credit_note"] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

export const INVOICE_KIND_LABELS: Record<InvoiceKind, string> = {
  invoice: "Invoice",
  credit_note: "Credit note",
};

export const INVOICE_RULES = {
  /** A buyer may correct their billing details this long after the purchase (on the app's clock). */
  correctionDays: 30,
  /** Digits of the number after the prefix: INV-000042. */
  numberDigits: 6,
  /** Credit notes count in a sequence of their own, their prefix the invoices' with this added. */
  creditNoteMark: "CN-",
  /** The seller's list, one page. */
  pageSize: 50,
  /** A buyer's invoice link works this long (it is in the receipt email). */
  linkDays: 3 * 365,
} as const;

/** The invoice prefix a store without settings uses (store_tax_settings.invoice_prefix's default). */
export const DEFAULT_INVOICE_PREFIX = "INV-";

/** "INV-" and 42 → "INV-000042"; a credit note: "INV-CN-000007". */
export function invoiceNumberText(prefix: string, kind: InvoiceKind, number: number): string {
  const mark = kind === "credit_note" ? INVOICE_RULES.creditNoteMark : "";
  return `${prefix}${mark}${String(number).padStart(INVOICE_RULES.numberDigits, "0")}`;
}

/** The seller or the buyer, as a document names them (a snapshot: later changes do not touch it). */
export interface InvoiceParty {
  name: string | null;
  businessName: string | null;
  /** Address lines as printed, country last. */
  address: string[];
  /** The buyer's address as fields (Stripe's shape), which the billing-details form starts from. */
  postalAddress?: BillingAddress | null;
  /** ISO country code, when known. */
  country: string | null;
  /** VAT number or other tax ID. */
  taxId: string | null;
  /** The buyer's email (every order has one; the fallback when no name is known). */
  email: string | null;
  /** When VIES confirmed the buyer's VAT number (ISO date), and only while the number is the one checked. */
  taxIdCheckedAt: string | null;
  /** That check as VIES answered it (service, time, registered name, reference); absent on older documents. */
  taxIdCheck?: TaxIdCheck | null;
}

/** One line of a document; a credit note's mirror its invoice's, negative. */
export interface InvoiceLine {
  description: string;
  /** A membership payment's period (ISO dates). */
  periodStart: string | null;
  periodEnd: string | null;
  quantity: number;
  netCents: number;
  taxCents: number;
  totalCents: number;
  /** "VAT 19% (Germany)"; null without tax. */
  taxLabel: string | null;
}

/** The reverse-charge note printed instead of a tax line (EU B2B supply of services). */
export const REVERSE_CHARGE_NOTE =
  "Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).";

/** One document in the seller's list. */
export const invoiceSummarySchema = z.object({
  id: z.string(),
  orderId: z.string(),
  kind: z.enum(INVOICE_KINDS),
  numberText: z.string(),
  version: z.number(),
  issuedAt: z.string(),
  buyer: z.string(),
  productTitle: z.string(),
  totalCents: z.number(),
  taxCents: z.number(),
  currency: z.string(),
  /** GET it for the PDF (the seller's session). */
  pdfPath: z.string(),
});
export type InvoiceSummary = z.infer<typeof invoiceSummarySchema>;

export const invoicesPageSchema = z.object({
  invoices: z.array(invoiceSummarySchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type InvoicesPage = z.infer<typeof invoicesPageSchema>;

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Dates are YYYY-MM-DD")
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), "Not a date");

const PERIOD_ORDER_MESSAGE = "The period's end must not be before its start.";

/** A period of days (UTC, both ends included) and a kind: the seller's list; the export takes the period. */
export const invoicesQuerySchema = z
  .object({
    from: isoDay.optional(),
    to: isoDay.optional(),
    kind: z.enum(INVOICE_KINDS).optional(),
    cursor: z.string().max(200).optional(),
  })
  .refine((period) => !period.from || !period.to || period.from <= period.to, {
    message: PERIOD_ORDER_MESSAGE,
    path: ["to"],
  });

export const invoiceExportQuerySchema = z
  .object({ from: isoDay.optional(), to: isoDay.optional() })
  .refine((period) => !period.from || !period.to || period.from <= period.to, {
    message: PERIOD_ORDER_MESSAGE,
    path: ["to"],
  });

export const INVOICE_MESSAGES = {
  linkInvalid: "This invoice link is not valid. Use the link in your receipt email or your library.",
  notFound: "No invoice was found for this purchase.",
  correctionClosed: `Billing details can be corrected for ${INVOICE_RULES.correctionDays} days after the purchase. This period has ended; contact the seller if something is wrong.`,
  correctionRefunded:
    "This purchase was refunded and its invoice cancelled by a credit note, so it can no longer be corrected.",
  corrected: "Your billing details were saved. The invoice link now gives the corrected invoice.",
  nameRequired: "Enter your name or your business name.",
  tooLong: (field: string, max: number) => `${field} must be at most ${max} characters.`,
  countryShape: "Choose a country (2-letter code like DE).",
  taxIdShape: "A VAT ID has letters and digits only, like DE123456789.",
  /** A corrected EU VAT ID is checked with VIES before it is saved (docs/tax-and-invoices.md). */
  taxIdEuShape: "Enter the EU VAT ID with its country code, like DE123456789 (EL for Greece).",
  taxIdNotRegistered:
    "This VAT ID isn't registered in the EU's VIES database, so nothing was saved. Check it, or leave the VAT ID empty.",
  taxIdCheckUnavailable:
    "The EU's VAT number service isn't answering right now, so nothing was saved. Try again in a few minutes.",
  periodOrder: PERIOD_ORDER_MESSAGE,
} as const;

const field = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, INVOICE_MESSAGES.tooLong(label, max))
    .optional()
    .default("")
    .transform((value) => value || null);

/** The billing-details correction form (server-rendered page, urlencoded body). */
export const billingDetailsSchema = z
  .object({
    name: field("Name", 200),
    businessName: field("Business name", 200),
    line1: field("Address", 200),
    line2: field("Address line 2", 200),
    postalCode: field("Postal code", 20),
    city: field("City", 100),
    country: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^([A-Z]{2})?$/, INVOICE_MESSAGES.countryShape)
      .optional()
      .default("")
      .transform((value) => value || null),
    taxId: z
      .string()
      .trim()
      .max(40, INVOICE_MESSAGES.tooLong("VAT ID", 40))
      .regex(/^[A-Za-z0-9 .\-/]*$/, INVOICE_MESSAGES.taxIdShape)
      .optional()
      .default("")
      .transform((value) => value.toUpperCase().replace(/[\s.\-/]/g, "") || null),
  })
  .refine((details) => details.name || details.businessName, {
    message: INVOICE_MESSAGES.nameRequired,
    path: ["name"],
  });
export type BillingDetailsInput = z.input<typeof billingDetailsSchema>;
export type BillingDetails = z.output<typeof billingDetailsSchema>;

const isoOf = (date: Date) => date.toISOString().slice(0, 10);

/** A calendar quarter in UTC as a period of days: `offset` 0 is the quarter of `now`, -1 the one before. */
export function quarterPeriod(now: Date, offset = 0): { from: string; to: string } {
  const quarter = Math.floor(now.getUTCMonth() / 3) + offset;
  const start = new Date(Date.UTC(now.getUTCFullYear(), quarter * 3, 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), quarter * 3 + 3, 0));
  return { from: isoOf(start), to: isoOf(end) };
}
