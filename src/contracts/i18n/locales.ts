/**
 * The languages buyers' pages and emails speak (docs/i18n.md), and how a request picks one: an explicit
 * choice (the switcher's `?lang=`, then its cookie), else the browser's Accept-Language, else English.
 * Shared by the server (which renders every buyer page) and the web app (ready for the dashboard).
 */

export const LOCALES = ["en", "es", "de", "fr", "pt-BR", "ja"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** The cookie that remembers a buyer's choice from the language switcher (a year, first-party). */
export const LOCALE_COOKIE = "lang";
/** The query parameter the switcher's links carry. */
export const LOCALE_PARAM = "lang";

/** Each language in its own words, as the switcher lists them. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: "English",
  es: "Español",
  de: "Deutsch",
  fr: "Français",
  "pt-BR": "Português (Brasil)",
  ja: "日本語",
};

const byLowercase = new Map(LOCALES.map((locale) => [locale.toLowerCase(), locale]));

/**
 * One of ours for a language tag, or undefined: "de-AT" → "de", "pt" / "pt-PT" → "pt-BR" (the one
 * Portuguese we have), "ja-JP" → "ja"; exact tags first ("pt-BR"), then the language alone.
 */
export function supportedLocale(tag: string | undefined | null): Locale | undefined {
  if (!tag) return undefined;
  const lower = tag.trim().toLowerCase().replace(/_/g, "-");
  if (!/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/.test(lower)) return undefined;
  const exact = byLowercase.get(lower);
  if (exact) return exact;
  const language = lower.split("-")[0] ?? "";
  return byLowercase.get(language) ?? (language === "pt" ? "pt-BR" : undefined);
}

/**
 * The best of ours for an Accept-Language header ("de-DE,de;q=0.9,en;q=0.8"): its tags by quality
 * (ties keep the header's order), the first we speak; q=0 means "not this one".
 */
export function localeFromAcceptLanguage(header: string | undefined | null): Locale | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .slice(0, 20)
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return { tag, quality: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.quality > 0 && Number.isFinite(entry.quality))
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const entry of ranked) {
    const locale = supportedLocale(entry.tag);
    if (locale) return locale;
  }
  return undefined;
}

/** What a request says about its language, wherever it came from. */
export interface LocaleHints {
  /** The switcher's `?lang=`. */
  param?: string | undefined;
  /** The remembered choice. */
  cookie?: string | undefined;
  acceptLanguage?: string | undefined;
}

/** The language to answer in: the switcher's choice, then the remembered one, then the browser's, then English. */
export function negotiateLocale(hints: LocaleHints): Locale {
  return (
    supportedLocale(hints.param) ??
    supportedLocale(hints.cookie) ??
    localeFromAcceptLanguage(hints.acceptLanguage) ??
    DEFAULT_LOCALE
  );
}
