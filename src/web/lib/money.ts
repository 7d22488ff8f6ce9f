import { minorUnitDigits } from "../../contracts/money";

/**
 * What the web app adds to contracts/money.ts for its fields and charts: a currency's symbol, round
 * amounts, example amounts. Amounts are integers of the currency's minor unit, formatted from their
 * exact decimal string, never a float.
 */

/** The dashboard speaks US English; amounts are written as Intl writes them there ("$19.99", "€18.00", "¥1,500"). */
export const DASHBOARD_LOCALE = "en-US";

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
