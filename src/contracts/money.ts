/**
 * Money, the one module for it: amounts are integers of the currency's minor unit (cents) everywhere,
 * in the database, the API and the web app. These are the only conversions to and from text.
 */

/** "19.99" → 1999. Parsed as a decimal string, never through floating point. Undefined when not a price. */
export function parsePriceToCents(input: string | number): number | undefined {
  const text = typeof input === "number" ? String(input) : input.trim();
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/** 1999 → "19.99", -500 → "-5.00": cents as a plain decimal (CSV exports, form fields, meta tags), by integer arithmetic. */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const whole = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, "0")}`;
}

// Made once: toLocaleString builds a new formatter on every call, a measurable cost on a 24-product store page.
const DOLLARS = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 1999 → "$19.99": the spec shows prices with 2 decimals in dollars. */
export const formatPrice = (cents: number): string => `$${DOLLARS.format(cents / 100)}`;

// Whole dollars, for a chart's axis.
const WHOLE_DOLLARS = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** 123456 → "$1,235": rounded to whole dollars (a chart's axis, where cents would be noise). */
export const formatWholeDollars = (cents: number): string =>
  `$${WHOLE_DOLLARS.format(Math.round(cents / 100))}`;

/** `percent`% of an amount, rounded to the nearest cent (a percentage discount). */
export const percentOfCents = (cents: number, percent: number): number => Math.round((cents * percent) / 100);

/**
 * Monthly recurring revenue from what monthly and yearly subscriptions charge per period: a year counts
 * for a twelfth a month, rounded to the cent once for the whole sum (never per subscription).
 */
export function monthlyRecurringCents(monthlyCents: number, yearlyCents: number): number {
  return monthlyCents + Math.round(yearlyCents / 12);
}
