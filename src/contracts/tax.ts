import { z } from "zod";

/**
 * Tax, as Flatfee sees it (docs/tax-and-invoices.md): the creator is the seller of record and Stripe Tax
 * runs on their own connected account. We pass what a product is (its tax code) and whether prices
 * include tax, and record what Stripe decided; we never compute a tax ourselves.
 */

export type TaxBehavior = "inclusive" | "exclusive";

export const TAX_CATEGORIES = ["ebook", "software", "audio", "video", "other"] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

export const TAX_CATEGORY_LABELS: Record<TaxCategory, string> = {
  ebook: "E-book",
  software: "Software",
  audio: "Audio",
  video: "Video",
  other: "Other digital goods",
};

/** Stripe's tax codes (docs.stripe.com/tax/tax-codes): downloaded, not a subscription, permanent rights. */
export const STRIPE_TAX_CODES: Record<TaxCategory, string> = {
  ebook: "txcd_10302000", // Digital Books - downloaded - non subscription - with permanent rights
  software: "txcd_10202000", // Downloadable Software - personal use
  audio: "txcd_10401100", // Digital Audio Works - downloaded - non subscription - with permanent rights
  video: "txcd_10402100", // Digital Audio Visual Works - downloaded - non subscription - with permanent rights
  other: "txcd_10000000", // General - Electronically Supplied Services
};

const EBOOK_TYPES = new Set(["application/pdf", "application/epub+zip", "application/x-mobipocket-ebook"]);
const SOFTWARE_TYPES = new Set([
  "application/x-msdownload",
  "application/vnd.microsoft.portable-executable",
  "application/x-apple-diskimage",
  "application/vnd.android.package-archive",
  "application/x-msi",
  "application/x-executable",
]);

/**
 * A product's tax category when the seller chose none: from its files' content types, the category all
 * of them share (a PDF and an EPUB are an e-book); files of mixed kinds, or none, are "other".
 */
export function defaultTaxCategory(contentTypes: readonly string[]): TaxCategory {
  const kinds = new Set(
    contentTypes.map((type): TaxCategory => {
      if (EBOOK_TYPES.has(type)) return "ebook";
      if (SOFTWARE_TYPES.has(type)) return "software";
      if (type.startsWith("audio/")) return "audio";
      if (type.startsWith("video/")) return "video";
      return "other";
    }),
  );
  return kinds.size === 1 ? [...kinds][0]! : "other";
}

/** Stripe's address shape, as Checkout collects it. */
export interface BillingAddress {
  line1: string | null;
  line2: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
}

/** A VAT number's check against the EU's VIES (or the embedded stand-in), kept with the checkout and order. */
export interface TaxIdCheck {
  /** valid: VIES knows the number; invalid: it does not; unavailable: VIES did not answer. */
  status: "valid" | "invalid" | "unavailable";
  /** "vies" or "local" (the embedded stand-in, which has no internet). */
  service: string;
  checkedAt: string;
  /** The registered name and VIES's request reference, when it gives them. */
  name: string | null;
  reference: string | null;
}

/** The 27 member states (ISO codes; Greece's VAT numbers start with EL). */
export const EU_COUNTRIES = [
  "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IE", "IT", "LT",
  "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
] as const; // biome-ignore format: a list of codes reads best packed

export const isEuCountry = (country: string | null | undefined): boolean =>
  !!country && (EU_COUNTRIES as readonly string[]).includes(country);

/** Where EU-style consumer law (the 14-day right of withdrawal) protects the buyer: the EU and the UK. */
export const isEuOrUk = (country: string | null | undefined): boolean =>
  isEuCountry(country) || country === "GB";

/** A VAT number as VIES takes it: its 2-letter prefix (EL for Greece, XI for Northern Ireland) and the rest. */
export interface VatNumber {
  prefix: string;
  number: string;
  /** The ISO country the prefix names. */
  country: string;
}

const VAT_PREFIXES = new Set([...EU_COUNTRIES.filter((c) => c !== "GR"), "EL", "XI"]);

/**
 * Whether a tax ID starts like an EU VAT number (a member state's code, EL or XI), so VIES is the one to
 * ask about it; other countries' tax IDs (GB, CH, NO, US...) are not in VIES.
 */
export function hasEuVatPrefix(taxId: string): boolean {
  const prefix = taxId.trim().slice(0, 2).toUpperCase();
  return VAT_PREFIXES.has(prefix) || isEuCountry(prefix);
}

/** "de 123 456 789" → DE / 123456789; undefined when it is not shaped like an EU VAT number. */
export function parseEuVatNumber(input: string): VatNumber | undefined {
  const compact = input.toUpperCase().replace(/[\s.\-/]/g, "");
  const match = /^([A-Z]{2})([0-9A-Z+*]{2,12})$/.exec(compact);
  if (!match || !VAT_PREFIXES.has(match[1]!)) return undefined;
  const prefix = match[1]!;
  const country = prefix === "EL" ? "GR" : prefix === "XI" ? "GB" : prefix;
  return { prefix, number: match[2]!, country };
}

/**
 * The waiver a buyer accepts before paying for a download (EU Consumer Rights Directive, art. 16(m)):
 * express consent to immediate delivery and acknowledgement of losing the right of withdrawal. Stored
 * word for word with the order, shown on the receipt and the invoice.
 */
export const WITHDRAWAL_WAIVER_TEXT =
  "I agree that my download is available immediately after payment, and I acknowledge that I thereby lose my 14-day right of withdrawal.";

/** How a product page shows whether its price includes tax, once the store collects tax. */
export const TAX_PRICE_NOTES: Record<TaxBehavior, string> = {
  inclusive: "incl. VAT where applicable",
  exclusive: "+ tax",
};

export const TAX_MESSAGES = {
  notActive:
    "Stripe Tax isn't active on your Stripe account yet. Finish the checklist, then turn collection on.",
  noPayoutAccount: "Connect your Stripe account first: tax is collected on it.",
  vatNumberShape: "Enter an EU VAT number with its country code, like DE123456789.",
  vatNumberInvalid:
    "This VAT number isn't registered in the EU's VIES database. Check it, or buy without a VAT number.",
  vatNumberUnavailable:
    "The EU's VAT number service isn't answering right now. Try again in a few minutes, or buy without a VAT number.",
  tooManyVatChecks: "Too many VAT number checks. Please wait a few minutes.",
  businessNameRequired: "Enter the business name for the invoice.",
  businessNameTooLong: "Business name must be under 200 characters",
  legalNameTooLong: "Legal name must be under 200 characters",
  legalAddressTooLong: "Address must be under 500 characters",
  taxIdTooLong: "Tax ID must be under 40 characters",
  invoicePrefixShape: "Invoice prefix: up to 20 letters, digits, dashes, dots or slashes",
  waiverRequiredInEu: "Buyers in the EU and UK are always asked to waive their right of withdrawal.",
} as const;

const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .nullish()
    .transform((value) => (value ? value : null));

/** The store's tax settings as the seller saves them; a field left out keeps its value. */
export const storeTaxSettingsInputSchema = z.object({
  collectTax: z.boolean().optional(),
  taxBehavior: z.enum(["inclusive", "exclusive"]).optional(),
  legalName: optionalText(200, TAX_MESSAGES.legalNameTooLong).optional(),
  legalAddress: optionalText(500, TAX_MESSAGES.legalAddressTooLong).optional(),
  taxId: optionalText(40, TAX_MESSAGES.taxIdTooLong).optional(),
  invoicePrefix: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9./-]{0,20}$/, TAX_MESSAGES.invoicePrefixShape)
    .optional(),
  /** Ask buyers outside the EU and UK for the withdrawal waiver too (always asked inside). */
  waiverOutsideEu: z.boolean().optional(),
});
export type StoreTaxSettingsInput = z.input<typeof storeTaxSettingsInputSchema>;

/** One thing missing before Stripe Tax can run on the seller's account, and where to fix it. */
export const taxChecklistItemSchema = z.object({
  key: z.enum(["payout_account", "head_office", "registrations"]),
  label: z.string(),
  done: z.boolean(),
  /** The page of the seller's Stripe dashboard that fixes it. */
  fixUrl: z.string().nullable(),
});

export const taxRegistrationSchema = z.object({
  country: z.string(),
  state: z.string().nullable(),
  type: z.string(),
});

export const storeTaxSettingsSchema = z.object({
  collectTax: z.boolean(),
  taxBehavior: z.enum(["inclusive", "exclusive"]),
  /** Stripe Tax's status on the seller's account: collection can be turned on only when active. */
  stripeTaxStatus: z.enum(["active", "pending"]).nullable(),
  headOfficeCountry: z.string().nullable(),
  checkedAt: z.string().nullable(),
  checklist: z.array(taxChecklistItemSchema),
  registrations: z.array(taxRegistrationSchema),
  legalName: z.string().nullable(),
  legalAddress: z.string().nullable(),
  taxId: z.string().nullable(),
  invoicePrefix: z.string(),
  waiverOutsideEu: z.boolean(),
});
export type StoreTaxSettings = z.infer<typeof storeTaxSettingsSchema>;

/** A business buyer's details, typed on the product page before Checkout (both optional, together). */
export const businessBuyerSchema = z
  .object({
    businessName: z.string().trim().max(200, TAX_MESSAGES.businessNameTooLong).optional().default(""),
    vatNumber: z.string().trim().max(40, TAX_MESSAGES.vatNumberShape).optional().default(""),
  })
  .transform(({ businessName, vatNumber }) => ({ businessName, vatNumber }));
export type BusinessBuyer = z.output<typeof businessBuyerSchema>;

/** Tax on an order, as receipts, the sales table, the API and webhooks show it. */
export const orderTaxSchema = z.object({
  /** Inside the order's amount: the net price is amount - tax. */
  taxCents: z.number().int(),
  taxBehavior: z.enum(["inclusive", "exclusive"]).nullable(),
  /** Stripe's percentage as text ("19", "8.875"); null when no tax was calculated. */
  taxRate: z.string().nullable(),
  /** "vat", "sales_tax", ... (Stripe's tax_type). */
  taxType: z.string().nullable(),
  taxJurisdiction: z.string().nullable(),
  /** Stripe's reason: standard_rated, not_collecting, reverse_charge, ... */
  taxabilityReason: z.string().nullable(),
  buyerCountry: z.string().nullable(),
  buyerState: z.string().nullable(),
  reverseCharge: z.boolean(),
});
export type OrderTax = z.infer<typeof orderTaxSchema>;

const TAX_TYPE_NAMES: Record<string, string> = {
  vat: "VAT",
  sales_tax: "Sales tax",
  gst: "GST",
  hst: "HST",
  pst: "PST",
  qst: "QST",
  rst: "RST",
  jct: "JCT",
  igst: "IGST",
  cgst: "CGST",
  sgst: "SGST",
};

/** "VAT 19% (DE)": Stripe's tax type, its rate (as Stripe's text, never a float) and jurisdiction. */
export function taxRateLabel(tax: Pick<OrderTax, "taxType" | "taxRate" | "taxJurisdiction">): string {
  const name = tax.taxType ? (TAX_TYPE_NAMES[tax.taxType] ?? tax.taxType.toUpperCase()) : "Tax";
  const rate = tax.taxRate ? ` ${tax.taxRate}%` : "";
  return `${name}${rate}${tax.taxJurisdiction ? ` (${tax.taxJurisdiction})` : ""}`;
}

const REGION_NAMES = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

/** "DE" → "Germany"; an unknown code stays as it is; null without a code. */
export function countryName(code: string | null | undefined): string | null {
  if (!code) return null;
  try {
    return REGION_NAMES.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/**
 * One short line for an order's tax: "VAT 19% (Germany)", "Reverse charge", "Not collected"; null when
 * no tax was asked of Stripe (a store not collecting tax).
 */
export function taxLabel(
  tax: Pick<
    OrderTax,
    "taxCents" | "taxRate" | "taxType" | "taxJurisdiction" | "taxabilityReason" | "reverseCharge"
  >,
): string | null {
  if (tax.reverseCharge) return "Reverse charge";
  if (tax.taxabilityReason === "not_collecting") return "Tax not collected";
  if (tax.taxCents > 0) return taxRateLabel(tax);
  return tax.taxabilityReason ? "No tax" : null;
}
