import { useLocation } from "react-router";
import { LOCALE_NAMES, LOCALE_PARAM, LOCALES, type Locale } from "../../../contracts/i18n/locales";
import { useI18n } from "../../lib/i18n";

const linkClasses =
  "rounded-md outline-none focus-visible:ring-2 focus-visible:ring-brand-500 text-muted transition-colors hover:text-ink";

/**
 * The page's address in another language: its path and query as rendered (renderDocument's `path`,
 * so a `?code=` or a session id stays; the library's `?token=`) with `lang` set. A path, not a bare
 * `?lang=`: a page answering a form post is shown at the form's address, which a GET does not serve.
 */
function addressIn(location: { pathname: string; search: string }, locale: Locale): string {
  const query = new URLSearchParams(location.search);
  query.set(LOCALE_PARAM, locale);
  return `${location.pathname}?${query}`;
}

/**
 * The languages a translated page can be read in, as plain links (no script; in the web app, following
 * one loads the page afresh): each sets `?lang=`, which the server remembers in a cookie
 * (docs/i18n.md). The current one is marked, not linked. In the footer of the creator's pages
 * (CreatorPageShell) and of the library (PageShell).
 */
export function LanguageSwitcher() {
  const { t, locale } = useI18n();
  const location = useLocation();
  return (
    <nav aria-label={t("footer.language")}>
      <ul className="flex flex-wrap justify-center gap-x-3 gap-y-1">
        {LOCALES.map((option) => (
          <li key={option}>
            {option === locale ? (
              <span aria-current="true" lang={option} className="font-semibold text-ink">
                {LOCALE_NAMES[option]}
              </span>
            ) : (
              <a href={addressIn(location, option)} lang={option} hrefLang={option} className={linkClasses}>
                {LOCALE_NAMES[option]}
              </a>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
