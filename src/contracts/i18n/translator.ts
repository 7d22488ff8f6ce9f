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
import reportsDe from "../../locales/reports/de.json";
import reportsEn from "../../locales/reports/en.json";
import reportsEs from "../../locales/reports/es.json";
import reportsFr from "../../locales/reports/fr.json";
import reportsJa from "../../locales/reports/ja.json";
import reportsPtBR from "../../locales/reports/pt-BR.json";
import type { Locale } from "./locales";
import { type Catalogue, makeTranslator, type Translator } from "./make-translator";

export type { Catalogue, MessageKey, TagRenderer, Translator } from "./make-translator";

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
  // The report form, its confirmation page and email (features/reports).
  reports: {
    en: reportsEn,
    es: reportsEs,
    de: reportsDe,
    fr: reportsFr,
    "pt-BR": reportsPtBR,
    ja: reportsJa,
  } satisfies Record<Locale, Record<keyof typeof reportsEn, string>>,
};

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

const translators = new Map<Locale, Translator>();

/** The translator of `locale`, with every area's messages (English's where a language lacks one). */
export function translator(locale: Locale): Translator {
  let made = translators.get(locale);
  if (!made) {
    made = makeTranslator(locale, CATALOGUES[locale], CATALOGUES.en);
    translators.set(locale, made);
  }
  return made;
}
