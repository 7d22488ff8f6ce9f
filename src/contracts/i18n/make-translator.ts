import { IntlMessageFormat } from "intl-messageformat";
import type emailsEn from "../../locales/emails/en.json";
import type pagesEn from "../../locales/pages/en.json";
import type reportsEn from "../../locales/reports/en.json";
import { formatMoney, minorToDecimal } from "../money";
import type { Locale } from "./locales";

/**
 * How a language's messages, money and dates are written, apart from the catalogues (translator.ts
 * holds them all): the web app's English default (lib/i18n.tsx) makes its translator from English's
 * pages catalogue alone, so the dashboard's bundle carries no other language.
 */

/** A message's name in the catalogues. */
export type MessageKey = keyof typeof pagesEn | keyof typeof emailsEn | keyof typeof reportsEn;
export type Catalogue = Record<MessageKey, string>;

type Primitive = string | number | Date;
/** A tag's part of a rich message: what it wraps, as the renderer builds it (React nodes on pages). */
export type TagRenderer<Part> = (chunks: Array<string | Part>) => Part;

const dateFormats = new Map<string, Intl.DateTimeFormat>();
const wholeMoneyFormats = new Map<string, Intl.NumberFormat>();

/** A round amount without its decimals: 1000000 "usd" → "$10,000" (en), "10.000 $" (de). */
function wholeMoney(amount: number, currency: string, locale: Locale): string {
  const id = `${locale}\u0000${currency}`;
  let format = wholeMoneyFormats.get(id);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: "currency",
      currency: currency.toUpperCase(),
      minimumFractionDigits: 0,
      maximumFractionDigits: 0,
    });
    wholeMoneyFormats.set(id, format);
  }
  return format.format(minorToDecimal(amount, currency) as unknown as number);
}

/** What a buyer's page or email speaks with: its messages, money and dates in one language. */
export interface Translator {
  locale: Locale;
  /** A plain message: t("common.files", { count: 3 }) → "3 files", "3 Dateien". */
  t(key: MessageKey, values?: Record<string, Primitive>): string;
  /**
   * A message with tags or elements in it: each tag's renderer gets what it wraps, and element values
   * stay elements. Answers the parts in order, for a page to render side by side.
   */
  rich<Part>(
    key: MessageKey,
    values: Record<string, Primitive | Part | TagRenderer<Part>>,
  ): Array<string | Part> | string;
  /**
   * An amount of `currency`'s minor unit, as this language writes it ("18,00 €"); `whole` leaves out
   * the decimals of a round amount ("up to $10,000", "10.000 $").
   */
  money(amount: number, currency: string, options?: { whole?: boolean }): string;
  /** A date as this language writes it (defaults: "27 Nov 2026", "2026/11/27"), in UTC unless told. */
  date(date: Date, options?: Intl.DateTimeFormatOptions): string;
}

const DEFAULT_DATE: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeZone: "UTC" };

/**
 * A translator of `locale` reading `catalogue`, then `fallback` (English) for a message it lacks; a
 * message neither has is its key. Each message is parsed once, on first use: parsing costs far more
 * than formatting.
 */
export function makeTranslator(
  locale: Locale,
  catalogue: Partial<Catalogue>,
  fallback: Partial<Catalogue> = {},
): Translator {
  const compiled = new Map<MessageKey, IntlMessageFormat>();
  const messageFormat = (key: MessageKey): IntlMessageFormat => {
    let format = compiled.get(key);
    if (!format) {
      format = new IntlMessageFormat(catalogue[key] ?? fallback[key] ?? key, locale);
      compiled.set(key, format);
    }
    return format;
  };
  return {
    locale,
    t: (key, values) => String(messageFormat(key).format(values)),
    rich: <Part>(key: MessageKey, values: Record<string, Primitive | Part | TagRenderer<Part>>) =>
      messageFormat(key).format<Part>(values as never) as Array<string | Part> | string,
    money: (amount, currency, options) =>
      options?.whole && Number.isInteger(Number(minorToDecimal(amount, currency)))
        ? wholeMoney(amount, currency, locale)
        : formatMoney(amount, currency, locale),
    date: (date, options = DEFAULT_DATE) => {
      const id = `${locale}\u0000${JSON.stringify(options)}`;
      let format = dateFormats.get(id);
      if (!format) {
        format = new Intl.DateTimeFormat(locale, options);
        dateFormats.set(id, format);
      }
      return format.format(date);
    },
  };
}
