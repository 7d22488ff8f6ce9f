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

/** `percent`% of an amount, rounded half up to its minor unit (a cent, a yen): a percentage discount in any currency. */
export const percentOfCents = (cents: number, percent: number): number => Math.round((cents * percent) / 100);

/**
 * Monthly recurring revenue from what monthly and yearly subscriptions charge per period: a year counts
 * for a twelfth a month, rounded to the cent once for the whole sum (never per subscription).
 */
export function monthlyRecurringCents(monthlyCents: number, yearlyCents: number): number {
  return monthlyCents + Math.round(yearlyCents / 12);
}

/*
 * Currencies. Every amount is an integer of its currency's minor unit as Stripe's API counts it: cents
 * for USD and EUR, whole yen for JPY, thousandths for KWD. A currency code is lowercase, as Stripe
 * writes it. Formatting goes through Intl.NumberFormat with a decimal string made by integer
 * arithmetic, so no amount ever passes through a float.
 */

/** Stripe's zero-decimal currencies: an amount of 1500 JPY is ¥1,500. */
const ZERO_DECIMAL = new Set([
  "bif",
  "clp",
  "djf",
  "gnf",
  "jpy",
  "kmf",
  "krw",
  "mga",
  "pyg",
  "rwf",
  "ugx",
  "vnd",
  "vuv",
  "xaf",
  "xof",
  "xpf",
]);

/** Stripe's three-decimal currencies: an amount of 5125 KWD is 5.125 KWD. */
const THREE_DECIMAL = new Set(["bhd", "jod", "kwd", "omr", "tnd"]);

/** How many decimals a currency's minor unit has in Stripe's API (0, 2 or 3). */
export function minorUnitDigits(currency: string): 0 | 2 | 3 {
  const code = currency.toLowerCase();
  if (ZERO_DECIMAL.has(code)) return 0;
  if (THREE_DECIMAL.has(code)) return 3;
  return 2;
}

/** 1999 "usd" → "19.99", 1500 "jpy" → "1500", 5125 "kwd" → "5.125": integer arithmetic only. */
export function minorToDecimal(amount: number, currency: string): string {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`not an integer amount: ${amount}`);
  const digits = minorUnitDigits(currency);
  const sign = amount < 0 ? "-" : "";
  const whole = String(Math.abs(amount));
  if (digits === 0) return `${sign}${whole}`;
  const padded = whole.padStart(digits + 1, "0");
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/**
 * "18", "18.5", "18,50" → the minor units of `currency` (1800, 1850, 1850 for EUR), undefined when it is
 * not an amount of that currency (too many decimals for it, a sign, letters). A comma is read as the
 * decimal mark only when it is the one separator, as a buyer in Berlin or Paris types it.
 */
export function parseMoney(input: string | number, currency: string): number | undefined {
  const text = (typeof input === "number" ? String(input) : input.trim()).replace(/^(\d+),(\d+)$/, "$1.$2");
  const digits = minorUnitDigits(currency);
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(text);
  if (!match) return undefined;
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return undefined;
  const amount = Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
  return Number.isSafeInteger(amount) ? amount : undefined;
}

// Formatters are made once per locale and currency: building one costs far more than using it.
const moneyFormats = new Map<string, Intl.NumberFormat>();
function moneyFormat(currency: string, locale: string, whole = false): Intl.NumberFormat {
  const key = `${locale}|${currency}|${whole}`;
  let format = moneyFormats.get(key);
  if (!format) {
    const digits = whole ? 0 : minorUnitDigits(currency);
    format = new Intl.NumberFormat(locale, {
      style: "currency",
      currency: currency.toUpperCase(),
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    moneyFormats.set(key, format);
  }
  return format;
}

/**
 * An amount as a buyer of `locale` reads it: formatMoney(1800, "eur", "de-DE") → "18,00 €",
 * formatMoney(1500, "jpy", "ja-JP") → "￥1,500", formatMoney(1999, "usd") → "$19.99". Intl formats the
 * exact decimal string (ES2023 Intl.NumberFormat v3), never a float.
 */
export function formatMoney(amount: number, currency: string, locale = "en-US"): string {
  const decimal = minorToDecimal(amount, currency);
  return moneyFormat(currency, locale).format(decimal as unknown as number);
}

/**
 * An amount rounded to whole units of its currency: 123456 "usd" → "$1,235", 1500 "jpy" → "¥1,500" (a
 * chart's axis, round limits in hints). Intl rounds the exact decimal string, never a float.
 */
export function formatWholeMoney(amount: number, currency: string, locale = "en-US"): string {
  return moneyFormat(currency, locale, true).format(minorToDecimal(amount, currency) as unknown as number);
}
