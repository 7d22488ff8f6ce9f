import { z } from "zod";
import { countryName as countryNameOf } from "./tax";

/**
 * The tax report and the tax guide (docs/tax-and-invoices.md, "Tax report and tax guide"). Both read
 * what Stripe Tax decided on each order (contracts/tax.ts); neither computes a tax. Amounts are integer
 * minor units of the store currency (what each order settled as: docs/money.md); the guide's euro
 * amounts are integer euro cents.
 */

// ---------------------------------------------------------------------------------------------------
// Quarters: UTC calendar quarters, named "2026-Q4".

export const QUARTER_PATTERN = /^(\d{4})-Q([1-4])$/;

export const TAX_REPORT_MESSAGES = {
  quarterShape: "Choose a quarter like 2026-Q4.",
  countryShape: "Choose a country by its two-letter code, like DE.",
  loadFailed: "Your tax report couldn't be loaded.",
  guideLoadFailed: "Your tax guide couldn't be loaded.",
  empty: "No sales or refunds in this quarter.",
  notAdvice: "This is guidance, not tax advice.",
} as const;

export const quarterSchema = z.string().regex(QUARTER_PATTERN, TAX_REPORT_MESSAGES.quarterShape);

/** The quarter a moment falls in, on UTC's calendar: 2026-11-27T05:00Z → "2026-Q4". */
export function quarterOf(date: Date): string {
  return `${date.getUTCFullYear()}-Q${Math.floor(date.getUTCMonth() / 3) + 1}`;
}

/** A quarter's first moment (included) and the next quarter's first moment (excluded), UTC. */
export function quarterRange(quarter: string): { from: Date; to: Date } {
  const match = QUARTER_PATTERN.exec(quarter);
  if (!match) throw new Error(`not a quarter: ${quarter}`);
  const year = Number(match[1]);
  const firstMonth = (Number(match[2]) - 1) * 3;
  return { from: new Date(Date.UTC(year, firstMonth, 1)), to: new Date(Date.UTC(year, firstMonth + 3, 1)) };
}

/** Every quarter from `first` to `last`, both included, oldest first. */
export function quartersBetween(first: string, last: string): string[] {
  const quarters: string[] = [];
  for (let at = quarterRange(first).from; at <= quarterRange(last).from; ) {
    const quarter = quarterOf(at);
    quarters.push(quarter);
    at = quarterRange(quarter).to;
  }
  return quarters;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-Q4" → "Q4 2026 (Oct – Dec)". */
export function quarterLabel(quarter: string): string {
  const match = QUARTER_PATTERN.exec(quarter);
  if (!match) return quarter;
  const first = (Number(match[2]) - 1) * 3;
  return `Q${match[2]} ${match[1]} (${MONTHS[first]} – ${MONTHS[first + 2]})`;
}

// ---------------------------------------------------------------------------------------------------
// Countries

export const COUNTRY_CODE_PATTERN = /^[A-Z]{2}$/;
export const countryCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(COUNTRY_CODE_PATTERN, TAX_REPORT_MESSAGES.countryShape);

/** How the report names orders without a buyer country (sales before tax collection). */
export const UNKNOWN_COUNTRY_NAME = "Unknown";

/** "DE" → "Germany"; null (no buyer country recorded) → "Unknown". */
export const countryName = (code: string | null): string => countryNameOf(code) ?? UNKNOWN_COUNTRY_NAME;

/** Countries a seller may pick on the guide when Stripe has not told us theirs: EU, UK, US, then others. */
export const GUIDE_COUNTRY_CHOICES = [
  "US", "GB", "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT",
  "LV", "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE", "AU", "BR", "CA", "CH", "IN",
  "JP", "MX", "NO", "NZ", "SG", "ZA",
] as const; // biome-ignore format: a list of codes reads best packed

// ---------------------------------------------------------------------------------------------------
// The tax report: GET /api/tax/report?quarter=2026-Q4 and /api/tax/report.csv

/**
 * One country (and US state) at one tax rate in a quarter. Sales are orders made in the quarter
 * (refunded later or not); refunds are orders refunded in the quarter, whenever they were sold, shown
 * as negative adjustments (as an OSS return corrects an earlier period in the current one).
 * Net is amount − tax. The net columns split the sales: reverse-charged (a business buyer with a
 * valid VAT number), not collected (Stripe's `not_collecting`: the account isn't registered there),
 * other zero-tax (exempt, zero-rated, not subject to tax, or sold before tax collection); the rest is
 * taxable.
 */
export const taxReportRowSchema = z.object({
  /** ISO country code; null: no buyer country was recorded (sales before tax collection). */
  country: z.string().nullable(),
  countryName: z.string(),
  /** The US state; null elsewhere. */
  state: z.string().nullable(),
  /** Stripe's percentage as text ("19", "8.875"); null when no rate was recorded. */
  taxRate: z.string().nullable(),
  salesCount: z.number().int(),
  netCents: z.number().int(),
  taxCents: z.number().int(),
  taxableNetCents: z.number().int(),
  refundsCount: z.number().int(),
  /** Zero or negative: the refunded orders' net and tax, subtracted in the refund's quarter. */
  refundsNetCents: z.number().int(),
  refundsTaxCents: z.number().int(),
  reverseChargeNetCents: z.number().int(),
  notCollectedNetCents: z.number().int(),
  otherZeroTaxNetCents: z.number().int(),
});
export type TaxReportRow = z.infer<typeof taxReportRowSchema>;

export const taxReportTotalsSchema = taxReportRowSchema.omit({
  country: true,
  countryName: true,
  state: true,
  taxRate: true,
});
export type TaxReportTotals = z.infer<typeof taxReportTotalsSchema>;

export const taxReportSchema = z.object({
  quarter: z.string(),
  /** The quarter's first day and last day, UTC (YYYY-MM-DD). */
  from: z.string(),
  to: z.string(),
  currency: z.string(),
  /** Quarters with sales or refunds, newest first, plus the current one; the picker's choices. */
  quarters: z.array(z.string()),
  rows: z.array(taxReportRowSchema),
  totals: taxReportTotalsSchema,
});
export type TaxReport = z.infer<typeof taxReportSchema>;

export const TAX_REPORT_CSV_HEADER = [
  "Country code",
  "Country name",
  "State",
  "Rate %",
  "Sales count",
  "Net sales",
  "Tax",
  "Refunds net",
  "Refunds tax",
  "Reverse-charge net",
  "Not-collected net",
  "Other zero-tax net",
] as const;

export const taxReportCsvFileName = (quarter: string) => `tax-report-${quarter}.csv`;

// ---------------------------------------------------------------------------------------------------
// The tax guide: GET /api/tax/guide?country=DE

/**
 * The fixed reference rate the guide converts USD sales to euros with, as a ratio of integers: the
 * ECB's euro foreign exchange reference rate of 28 February 2025, 1 EUR = 1.0411 USD. An
 * approximation for guidance only (the threshold is counted in euros at the rates of each sale):
 * update it here, with its date, when it drifts far.
 */
export const USD_PER_EUR = {
  usd: 10_411,
  eur: 10_000,
  date: "2025-02-28",
  source: "ECB euro reference rate",
};

/** USD cents → euro cents at USD_PER_EUR, rounded down, by integer arithmetic. */
export const usdCentsToEurCents = (usdCents: number): number =>
  Math.floor((usdCents * USD_PER_EUR.eur) / USD_PER_EUR.usd);

/** EU: the EUR 10,000 a year of cross-border B2C TBE services and distance sales for EU-established sellers. */
export const EU_THRESHOLD_EUR_CENTS = 1_000_000;

/** The US economic-nexus thresholds many states use (South Dakota's, upheld in Wayfair, 2018). */
export const US_NEXUS_SALES_CENTS = 10_000_000;
export const US_NEXUS_TRANSACTIONS = 200;
/** A state is "approaching" from half of either threshold. */
export const US_NEXUS_APPROACHING_PERCENT = 50;

/** Whole percent of a limit used, rounded down: 6,240 of 10,000 → 62. */
export const percentUsed = (value: number, limit: number): number => Math.floor((value * 100) / limit);

export const TAX_GUIDE_LINKS = {
  euOss: "https://vat-one-stop-shop.ec.europa.eu/index_en",
  euEcommerce: "https://taxation-customs.ec.europa.eu/taxation/vat/vat-e-commerce_en",
  ukDigital: "https://www.gov.uk/guidance/the-vat-rules-if-you-supply-digital-services-to-private-consumers",
  usStreamlined: "https://www.streamlinedsalestax.org/",
} as const;

export const sellerCountrySourceSchema = z.enum(["stripe", "chosen", "none"]);

const salesSummarySchema = z.object({
  count: z.number().int(),
  netCents: z.number().int(),
  /** The UTC day of the first such sale, as midnight UTC that day (ISO), null without any. */
  firstSaleAt: z.string().nullable(),
});

export const usStateNexusSchema = z.object({
  state: z.string(),
  count: z.number().int(),
  netCents: z.number().int(),
  salesPercent: z.number().int(),
  transactionsPercent: z.number().int(),
  status: z.enum(["approaching", "reached"]),
});
export type UsStateNexus = z.infer<typeof usStateNexusSchema>;

export const taxGuideSchema = z.object({
  sellerCountry: z.string().nullable(),
  /** Where the country came from: Stripe's head office, the seller's choice on the page, or unknown. */
  sellerCountrySource: sellerCountrySourceSchema,
  /** The country Stripe has for the account (even when the seller picked another on the page). */
  stripeCountry: z.string().nullable(),
  year: z.number().int(),
  asOf: z.string(),
  /** EU-established seller: this calendar year's cross-border EU consumer sales against EUR 10,000. */
  euSeller: z
    .object({
      count: z.number().int(),
      netCents: z.number().int(),
      netEurCents: z.number().int(),
      thresholdEurCents: z.number().int(),
      percentUsed: z.number().int(),
    })
    .nullable(),
  /** Seller outside the EU: EU consumer sales since the first one (VAT is owed from it). */
  euConsumerSales: salesSummarySchema.nullable(),
  /** Seller outside the UK: UK consumer sales since the first one. */
  ukConsumerSales: salesSummarySchema.nullable(),
  /** US states at or past half of either common threshold this calendar year, highest first. */
  usStates: z.array(usStateNexusSchema),
  /** US states with any sale this calendar year. */
  usStatesWithSales: z.number().int(),
  /** Where tax was collected on some order in the last 12 months. */
  collectingIn: z.array(
    z.object({
      country: z.string(),
      state: z.string().nullable(),
      count: z.number().int(),
      taxCents: z.number().int(),
    }),
  ),
  rate: z.object({ usd: z.number().int(), eur: z.number().int(), date: z.string(), source: z.string() }),
});
export type TaxGuide = z.infer<typeof taxGuideSchema>;

const WHOLE = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** 600134 euro cents → "EUR 6,001": whole euros, rounded down (integer division), for the guide's status lines. */
export const formatEuros = (eurCents: number): string => `EUR ${WHOLE.format(Math.floor(eurCents / 100))}`;

/** 1.0411 as the guide states the reference rate: "1 EUR = 1.0411 USD (ECB euro reference rate, 2025-02-28)". */
export const referenceRateText = (rate = USD_PER_EUR): string =>
  `1 EUR = ${Math.floor(rate.usd / rate.eur)}.${String(rate.usd % rate.eur).padStart(4, "0")} USD (${rate.source}, ${rate.date})`;
