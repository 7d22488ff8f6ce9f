import { minorToDecimal, minorUnitDigits } from "../../contracts/money";

/**
 * What the web app adds to contracts/money.ts for its fields and charts: a currency's symbol, round
 * amounts, example amounts. Amounts are integers of the currency's minor unit, formatted from their
 * exact decimal string, never a float.
 */

/** The dashboard speaks US English; amounts are written as Intl writes them there ("$19.99", "€18.00", "¥1,500"). */
export const DASHBOARD_LOCALE = "en-US";

const wholeFormats = new Map<string, Intl.NumberFormat>();

/**
 * An amount rounded to whole units of its currency, without decimals: 123456 "usd" → "$1,235", 1000000
 * "usd" → "$10,000", 1500 "jpy" → "¥1,500". For a chart's axis and round limits in hints. Intl rounds
 * the exact decimal string (half away from zero), never a float.
 */
export function formatWholeMoney(amount: number, currency: string): string {
  let format = wholeFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(DASHBOARD_LOCALE, {
      style: "currency",
      currency: currency.toUpperCase(),
      minimumFractionDigits: 0,
      maximumFractionDigits: 0,
    });
    wholeFormats.set(currency, format);
  }
  return format.format(minorToDecimal(amount, currency) as unknown as number);
}

/** "$", "€", "¥", "CA$", "R$": what a money field shows before the amount. */
export function currencySymbol(currency: string): string {
  const parts = new Intl.NumberFormat(DASHBOARD_LOCALE, {
    style: "currency",
    currency: currency.toUpperCase(),
  }).formatToParts(0);
  return parts.find((part) => part.type === "currency")?.value ?? currency.toUpperCase();
}

/**
 * An example amount for a money field's placeholder, from what it is in dollars ("19.99"): as typed in
 * `currency` ("19.99" for EUR, "2000" for JPY, which has no decimals, "19.990" for KWD).
 */
export function amountPlaceholder(dollars: string, currency: string): string {
  const digits = minorUnitDigits(currency);
  if (digits === 2) return dollars;
  if (digits === 3) return `${dollars}0`;
  return String(Math.round(Number(dollars)) * 100);
}
