import { IntlMessageFormat } from "intl-messageformat";
import emailsDe from "../../locales/emails/de.json";
import emailsEn from "../../locales/emails/en.json";
import emailsEs from "../../locales/emails/es.json";
import emailsFr from "../../locales/emails/fr.json";
import emailsJa from "../../locales/emails/ja.json";
import emailsPtBR from "../../locales/emails/pt-BR.json";
import pagesDe from "../../locales/pages/de.json";
import pagesEn from "../../locales/pages/en.json";
import pagesEs from "../../locales/pages/es.json";
import pagesFr from "../../locales/pages/fr.json";
import pagesJa from "../../locales/pages/ja.json";
import pagesPtBR from "../../locales/pages/pt-BR.json";
import { formatMoney, minorToDecimal } from "../money";
import { DEFAULT_LOCALE, type Locale } from "./locales";

/**
 * The catalogues by area, each a file per language (src/locales/<area>/<locale>.json), so two areas'
 * messages are added side by side without touching the same file. English is the reference: every
 * language has its keys. Keys are unique across areas (catalogues.test.ts).
 */
export const AREAS = {
  pages: {
    en: pagesEn,
    es: pagesEs,
    de: pagesDe,
    fr: pagesFr,
    "pt-BR": pagesPtBR,
    ja: pagesJa,
  } satisfies Record<Locale, Record<keyof typeof pagesEn, string>>,
  emails: {
    en: emailsEn,
    es: emailsEs,
    de: emailsDe,
    fr: emailsFr,
    "pt-BR": emailsPtBR,
    ja: emailsJa,
  } satisfies Record<Locale, Record<keyof typeof emailsEn, string>>,
};

/** A message's name in the catalogues. */
export type MessageKey = keyof typeof pagesEn | keyof typeof emailsEn;
export type Catalogue = Record<MessageKey, string>;

const catalogueOf = (locale: Locale) =>
  Object.assign({}, ...Object.values(AREAS).map((area) => area[locale])) as Catalogue;

/**
 * One catalogue per language, ICU MessageFormat (FormatJS's intl-messageformat): "{count, plural, one
 * {# file} other {# files}}" is right in every language, a tag like <b>…</b> marks what a page styles.
 * AREAS' `satisfies` makes a missing key a type error; catalogues.test.ts also checks arguments and syntax.
 */
export const CATALOGUES = {
  en: catalogueOf("en"),
  es: catalogueOf("es"),
  de: catalogueOf("de"),
  fr: catalogueOf("fr"),
  "pt-BR": catalogueOf("pt-BR"),
  ja: catalogueOf("ja"),
};

type Primitive = string | number | Date;
/** A tag's part of a rich message: what it wraps, as the renderer builds it (React nodes on pages). */
export type TagRenderer<Part> = (chunks: Array<string | Part>) => Part;

// Parsed once per language and message, on first use: parsing costs far more than formatting.
const compiled = new Map<string, IntlMessageFormat>();
function messageFormat(locale: Locale, key: MessageKey): IntlMessageFormat {
  const id = `${locale}\u0000${key}`;
  let format = compiled.get(id);
  if (!format) {
    const catalogue: Partial<Catalogue> = CATALOGUES[locale];
    format = new IntlMessageFormat(catalogue[key] ?? CATALOGUES[DEFAULT_LOCALE][key], locale);
    compiled.set(id, format);
  }
  return format;
}

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

export function translator(locale: Locale): Translator {
  return {
    locale,
    t: (key, values) => String(messageFormat(locale, key).format(values)),
    rich: <Part>(key: MessageKey, values: Record<string, Primitive | Part | TagRenderer<Part>>) =>
      messageFormat(locale, key).format<Part>(values as never) as Array<string | Part> | string,
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
