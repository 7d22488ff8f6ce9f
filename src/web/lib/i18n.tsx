import { createContext, type ReactNode, useContext } from "react";
import { translateMessage } from "../../contracts/i18n/buyer-messages";
import { DEFAULT_LOCALE } from "../../contracts/i18n/locales";
import { makeTranslator, type Translator } from "../../contracts/i18n/make-translator";
import englishPages from "../../locales/pages/en.json";

/**
 * English, from English's pages catalogue alone, so the web app's bundle carries no other language (the
 * server gives each page its language's translator, contracts/i18n/translator.ts; the library loads its
 * language's catalogue when it needs it, load-translator.ts).
 */
export const ENGLISH: Translator = makeTranslator(DEFAULT_LOCALE, englishPages);

// Without a provider a component speaks English: the dashboard, and every page not yet translated.
const I18nContext = createContext<Translator>(ENGLISH);

/** The language of what is inside: the server wraps each buyer page in the one the buyer asked for. */
export function I18nProvider({ value, children }: { value: Translator; children: ReactNode }) {
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** The page's messages, money and dates in its language (docs/i18n.md). */
export const useI18n = (): Translator => useContext(I18nContext);

/**
 * The server's words (a refusal, a field's problem, a tax note) as this page's language says them:
 * the API keeps them in English, the page translates the ones it knows (contracts/i18n/buyer-messages.ts).
 */
export function useServerText(): (english: string) => string {
  const i18n = useI18n();
  return (english) => translateMessage(i18n, english);
}
