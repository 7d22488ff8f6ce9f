/**
 * Reading one value of a row (a CSV cell or a JSON field): text, emails, flags, amounts of money and
 * timestamps. A value that cannot be read throws RowRejected with the reason in the creator's words; the
 * reader turns it into a RowProblem for that row and goes on with the next.
 */
import { minorUnitDigits, parseMoney } from "../../../../contracts/money";

/** Thrown while reading a row: its message is the RowProblem's reason ("Purchase Email is empty"). */
export class RowRejected extends Error {
  override readonly name = "RowRejected";
}

/** A value quoted in a reason: short enough to read in a list of problems. */
export function quoted(value: string): string {
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return `'${shown}'`;
}

/*
 * Formula-looking cells. A spreadsheet runs a cell that starts with =, +, -, @, a tab or a CR. Such text is
 * kept as text where text is expected (a name or a title is stored and shown, never evaluated; Flatfee's
 * own CSV exports guard it again, http/csv.ts) but it is never read as a number: an amount that looks
 * like a formula is a RowProblem.
 */

/** Whether a spreadsheet would read the cell as a formula: it starts with = + - @ tab or CR and is not a plain number. */
export function looksLikeFormula(text: string): boolean {
  if (!/^[=+\-@\t\r]/.test(text)) return false;
  return !/^[+-]\d+(\.\d+)?$/.test(text);
}

/**
 * Gumroad's CsvSafe guard undone: newer exports put one ' before a value that would read as a formula
 * (a Purchase ID can start with "-"). Only one ', and only before such a character, is taken off.
 */
export function stripFormulaGuard(text: string): string {
  return /^'[=+\-@|%\t\r]/.test(text) ? text.slice(1) : text;
}

/** A value that must be there, trimmed. */
export function requiredText(value: string | undefined, label: string): string {
  const text = (value ?? "").trim();
  if (text === "") throw new RowRejected(`${label} is empty`);
  return text;
}

/** A value that may be empty: trimmed, null when empty. */
export function optionalText(value: string | undefined): string | null {
  const text = (value ?? "").trim();
  return text === "" ? null : text;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An email address as exported (the applier lower-cases it); only its shape is checked. */
export function requiredEmail(value: string | undefined, label: string): string {
  const email = requiredText(value, label);
  if (!EMAIL.test(email)) throw new RowRejected(`${label} is not an email address: ${quoted(email)}`);
  return email;
}

/** A yes/no cell: 1/0, true/false, yes/no, or empty for no. */
export function flag(value: string | undefined, label: string): boolean {
  const text = (value ?? "").trim().toLowerCase();
  if (text === "1" || text === "true" || text === "yes") return true;
  if (text === "0" || text === "false" || text === "no" || text === "") return false;
  throw new RowRejected(`${label} is neither yes nor no: ${quoted(text)}`);
}

/**
 * A decimal amount ("25.0", "4.56", "1500") as an integer of `currency`'s minor unit, by contracts/money.ts
 * (never a float). Empty, negative, formula-looking text, or more decimals than the currency has, is refused.
 */
export function amount(value: string | undefined, label: string, currency: string): number {
  const text = requiredText(value, label);
  if (looksLikeFormula(text)) {
    throw new RowRejected(`${label} looks like a spreadsheet formula, not an amount: ${quoted(text)}`);
  }
  const parsed = parseMoney(text, currency);
  if (parsed === undefined) throw new RowRejected(amountReason(label, text, currency));
  return parsed;
}

/** An amount that may be empty (a column of a newer export, a field not every payload has): 0 when empty. */
export function optionalAmount(value: string | undefined, label: string, currency: string): number {
  return (value ?? "").trim() === "" ? 0 : amount(value, label, currency);
}

function amountReason(label: string, text: string, currency: string): string {
  const tooPrecise = /^\d+[.,]\d+$/.test(text) && minorUnitDigits(currency) < 2;
  if (tooPrecise) return `${label} has more decimals than ${currency.toUpperCase()} has: ${quoted(text)}`;
  return `${label} is not an amount: ${quoted(text)}`;
}

/** An integer amount already in minor units (JSON APIs): a non-negative safe integer. */
export function minorUnits(value: unknown, label: string): number {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  throw new RowRejected(`${label} is not an amount in cents: ${quoted(String(value))}`);
}

/** A currency code as Flatfee writes it: three letters, lower case. */
export function currencyCode(value: string | undefined, label: string): string {
  const code = requiredText(value, label).toLowerCase();
  if (!/^[a-z]{3}$/.test(code)) throw new RowRejected(`${label} is not a currency code: ${quoted(code)}`);
  return code;
}

/*
 * Timestamps. Every record carries UTC ISO strings (toISOString). Exports write their time zone as an
 * offset (+00:00, +0000), Z or UTC, and that is the zone read. A time with no zone at all is read as UTC
 * only where the format says its times are UTC (Gumroad's "Purchase Time (UTC timezone)"); anywhere else
 * it is a RowProblem, as guessing a zone would move every time by hours.
 */

/** How a time with no zone is read: as UTC (the format says so), or refused. */
export type ZonelessTimes = "utc" | "refuse";

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?$/i;

/** "2025-11-03T14:22:05.123456+00:00", "2025-11-03 14:22:05 +0000", "… UTC", "…Z" → "2025-11-03T14:22:05.123Z". */
export function timestamp(value: string | undefined, label: string, zoneless: ZonelessTimes): string {
  const text = requiredText(value, label);
  const match = TIMESTAMP.exec(text);
  if (!match) throw new RowRejected(`${label} is not a date and time: ${quoted(text)}`);
  const [, year, month, day, hour = "00", minute = "00", second = "00", fraction = "", zone] = match;
  if (!zone && zoneless === "refuse") {
    throw new RowRejected(
      `${label} has no time zone: ${quoted(text)}. Export the file again without editing its dates.`,
    );
  }
  const parts = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const millis = Number(fraction.slice(0, 3).padEnd(3, "0"));
  const local = Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5], millis);
  if (!sameCalendarTime(local, parts)) throw new RowRejected(`${label} is not a real date: ${quoted(text)}`);
  const offset = offsetMinutes(zone);
  if (offset === undefined) throw new RowRejected(`${label} has an impossible time zone: ${quoted(text)}`);
  return new Date(local - offset * 60_000).toISOString();
}

/** Date.UTC rolls 2025-02-30 over to March: a date is real when its parts come back unchanged. */
function sameCalendarTime(millis: number, [year, month, day, hour, minute, second]: number[]): boolean {
  const date = new Date(millis);
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month! - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}

function offsetMinutes(zone: string | undefined): number | undefined {
  if (!zone || /^(z|utc)$/i.test(zone)) return 0;
  const match = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
  const hours = Number(match[2]);
  const minutes = Number(match[3]);
  if (hours > 14 || minutes > 59) return undefined;
  return (match[1] === "-" ? -1 : 1) * (hours * 60 + minutes);
}

/** Unix seconds (a number or a string of digits), as webhooks send them: always UTC. */
export function unixSeconds(value: unknown, label: string): string {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (!/^\d{1,11}$/.test(text))
    throw new RowRejected(`${label} is not a time in Unix seconds: ${quoted(text)}`);
  return new Date(Number(text) * 1000).toISOString();
}
