import { queryOptions } from "@tanstack/react-query";
import type { Locale } from "../../contracts/i18n/locales";
import { type Catalogue, makeTranslator, type Translator } from "../../contracts/i18n/make-translator";
import englishPages from "../../locales/pages/en.json";
import { ENGLISH } from "./i18n";

type PagesCatalogue = { default: Partial<Catalogue> };

/**
 * Each language's pages catalogue, imported only when a page of the app needs it: Vite makes each its
 * own chunk, so the app's bundle carries English alone (the default translator, i18n.tsx) and a buyer
 * downloads the one language they read.
 */
const PAGES_CATALOGUES: Record<Exclude<Locale, "en">, () => Promise<PagesCatalogue>> = {
  es: () => import("../../locales/pages/es.json"),
  de: () => import("../../locales/pages/de.json"),
  fr: () => import("../../locales/pages/fr.json"),
  "pt-BR": () => import("../../locales/pages/pt-BR.json"),
  ja: () => import("../../locales/pages/ja.json"),
};

/** The translator of `locale` for a page of the app, English's messages where its catalogue lacks one. */
export async function loadTranslator(locale: Locale): Promise<Translator> {
  // English (DEFAULT_LOCALE) is in the bundle already.
  if (locale === "en") return ENGLISH;
  const { default: catalogue } = await PAGES_CATALOGUES[locale]();
  return makeTranslator(locale, catalogue, englishPages);
}

/** The translator as a query: loaded once per language and kept for the app's life. */
export const translatorQuery = (locale: Locale) =>
  queryOptions({
    queryKey: ["i18n", "pages", locale] as const,
    queryFn: () => loadTranslator(locale),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
