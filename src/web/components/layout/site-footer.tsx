import { Link } from "react-router";
import { useI18n } from "../../lib/i18n";
import { LanguageSwitcher } from "./language-switcher";
import { Logo } from "./logo";

const LINKS = [
  { to: "/terms", labelKey: "site.terms" },
  { to: "/privacy", labelKey: "site.privacy" },
  { to: "/status", labelKey: "site.status" },
  { to: "/system-status", labelKey: "site.systemMonitor" },
] as const;

/**
 * The site's footer; `languageSwitcher` adds the buyer's languages (a translated page: the library).
 * Its words follow the page's language (English without an I18nProvider: the dashboard, the landing page).
 */
export function SiteFooter({ languageSwitcher = false }: { languageSwitcher?: boolean }) {
  const { t } = useI18n();
  return (
    <footer className="border-t border-line bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-center md:justify-between">
        <div className="flex flex-col gap-2">
          <Logo />
          <p className="text-sm text-muted">{t("site.tagline")}</p>
        </div>
        <nav aria-label={t("site.nav.footer")}>
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            {LINKS.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="rounded text-muted transition-colors outline-none hover:text-ink focus-visible:ring-2 focus-visible:ring-brand-500"
                >
                  {t(link.labelKey)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      {languageSwitcher && (
        <div className="mx-auto max-w-6xl px-4 pb-6 text-xs sm:px-6 md:[&_ul]:justify-start">
          <LanguageSwitcher />
        </div>
      )}
      <div className="border-t border-line">
        <p className="mx-auto max-w-6xl px-4 py-4 text-xs text-muted sm:px-6">
          {/* The year as text: a number would be grouped in some languages ("2.026"). */}
          {t("site.copyright", { year: String(new Date().getFullYear()) })}
        </p>
      </div>
    </footer>
  );
}
