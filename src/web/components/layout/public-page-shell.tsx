import { Menu } from "lucide-react";
import type { ReactNode } from "react";
import { useI18n } from "../../lib/i18n";
import { Button } from "../ui/button";
import { Logo } from "./logo";
import { SiteFooter } from "./site-footer";
import { navLinkClasses, SECTIONS } from "./site-sections";

/**
 * The header of the server-rendered landing page: the same bar as the app's, without script. Signed
 * out: Login and Sign Up. Signed in: Dashboard, and Logout as a form. The phone menu is a <details>
 * disclosure.
 */
function PublicSiteHeader({ signedIn }: { signedIn: boolean }) {
  const { t } = useI18n();
  const sectionLinks = SECTIONS.map((section) => (
    <a key={section.id} href={`/#${section.id}`} className={navLinkClasses}>
      {t(section.labelKey)}
    </a>
  ));
  return (
    <header className="sticky top-0 z-40 border-b border-line/80 bg-white/80 backdrop-blur-md supports-[backdrop-filter]:bg-white/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Logo />
        <nav aria-label={t("site.nav.main")} className="hidden items-center gap-1 md:flex">
          {sectionLinks}
        </nav>
        <div className="flex items-center gap-1 md:gap-2">
          {signedIn ? (
            <>
              <Button asChild size="sm">
                <a href="/dashboard">{t("site.dashboard")}</a>
              </Button>
              <form method="post" action="/logout" className="hidden md:block">
                <Button type="submit" variant="ghost" size="sm">
                  {t("site.logout")}
                </Button>
              </form>
            </>
          ) : (
            <>
              <Button asChild variant="ghost" size="sm" className="hidden md:inline-flex">
                <a href="/auth">{t("site.login")}</a>
              </Button>
              <Button asChild size="sm">
                <a href="/auth">{t("site.signUp")}</a>
              </Button>
            </>
          )}
          <details className="group md:hidden">
            <summary className="flex size-10 cursor-pointer list-none items-center justify-center rounded-lg text-ink hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none [&::-webkit-details-marker]:hidden">
              <Menu className="size-4" aria-hidden="true" />
              <span className="sr-only">{t("site.menu.open")}</span>
            </summary>
            <div className="absolute inset-x-0 top-16 border-t border-b border-line bg-white px-4 pt-2 pb-4 shadow-sm">
              <nav aria-label="Main menu" className="flex flex-col">
                {sectionLinks}
              </nav>
              {signedIn ? (
                <form method="post" action="/logout">
                  <Button type="submit" variant="secondary" size="sm" className="mt-3 w-full">
                    {t("site.logout")}
                  </Button>
                </form>
              ) : (
                <Button asChild variant="secondary" size="sm" className="mt-3 w-full">
                  <a href="/auth">{t("site.login")}</a>
                </Button>
              )}
            </div>
          </details>
        </div>
      </div>
    </header>
  );
}

/**
 * Flatfee's own frame for the server-rendered landing page: the site's header, the page, footer. A
 * creator's pages (product, store, success, download) wear theirs instead (creator-page-shell.tsx).
 */
export function PublicPageShell({ children, signedIn = false }: { children: ReactNode; signedIn?: boolean }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicSiteHeader signedIn={signedIn} />
      <main id="main" className="flex-1">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
