import { Link, useLocation } from "react-router";
import { useI18n } from "../../lib/i18n";
import { useSession } from "../../lib/session";
import { useMediaQuery } from "../../lib/use-media-query";
import { Button } from "../ui/button";
import { Logo } from "./logo";
import { PhoneMenuButton, usePhoneMenu } from "./phone-menu";
import { navLinkClasses, SECTIONS } from "./site-sections";
import { useLogout } from "./use-logout";

function SectionLink({
  id,
  labelKey,
  onNavigate,
}: {
  id: string;
  labelKey: (typeof SECTIONS)[number]["labelKey"];
  onNavigate?: () => void;
}) {
  const { pathname } = useLocation();
  const label = useI18n().t(labelKey);
  // On the landing page a plain anchor scrolls; elsewhere go to the landing page at that section.
  if (pathname === "/") {
    return (
      <a href={`#${id}`} className={navLinkClasses} onClick={onNavigate}>
        {label}
      </a>
    );
  }
  return (
    <Link to={{ pathname: "/", hash: `#${id}` }} className={navLinkClasses} onClick={onNavigate}>
      {label}
    </Link>
  );
}

type Part = "all" | "primary" | "secondary";

/**
 * Signed out: Login and Sign Up. Signed in: Dashboard and Logout. On a phone the primary action
 * (Sign Up / Dashboard) stays in the bar and the other one moves into the menu.
 */
function AuthActions({ part = "all", stacked = false }: { part?: Part; stacked?: boolean }) {
  const { user, isPending } = useSession();
  const { logout, isLoggingOut } = useLogout();
  const { t } = useI18n();
  const width = stacked ? "w-full" : "";
  const primary = part !== "secondary";
  const secondary = part !== "primary";

  if (isPending) return part === "secondary" ? null : <div className="h-8 w-20 md:w-40" aria-hidden="true" />;
  if (user) {
    return (
      <>
        {primary && (
          <Button asChild variant={part === "all" ? "ghost" : "primary"} size="sm" className={width}>
            <Link to="/dashboard">{t("site.dashboard")}</Link>
          </Button>
        )}
        {secondary && (
          <Button
            variant={part === "all" ? "primary" : "secondary"}
            size="sm"
            className={width}
            onClick={logout}
            disabled={isLoggingOut}
          >
            {t("site.logout")}
          </Button>
        )}
      </>
    );
  }
  return (
    <>
      {secondary && (
        <Button asChild variant={stacked ? "secondary" : "ghost"} size="sm" className={width}>
          <Link to="/auth">{t("site.login")}</Link>
        </Button>
      )}
      {primary && (
        <Button asChild size="sm" className={width}>
          <Link to="/auth">{t("site.signUp")}</Link>
        </Button>
      )}
    </>
  );
}

export function SiteHeader() {
  // One set of controls in the DOM at a time (not two, one hidden by CSS), so each label is unique.
  const isDesktop = useMediaQuery("(min-width: 768px)");
  const menu = usePhoneMenu();
  const { t } = useI18n();

  return (
    <header className="sticky top-0 z-40 border-b border-line/80 bg-white/80 backdrop-blur-md supports-[backdrop-filter]:bg-white/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Logo />
        {isDesktop ? (
          <>
            <nav aria-label={t("site.nav.main")} className="flex items-center gap-1">
              {SECTIONS.map((section) => (
                <SectionLink key={section.id} {...section} />
              ))}
            </nav>
            <div className="flex items-center gap-2">
              <AuthActions />
            </div>
          </>
        ) : (
          <div className="flex items-center gap-1">
            <AuthActions part="primary" />
            <PhoneMenuButton menu={menu} />
          </div>
        )}
      </div>
      {!isDesktop && menu.open && (
        <div id={menu.menuId} className="border-t border-line bg-white px-4 pt-2 pb-4 shadow-sm">
          <nav aria-label={t("site.nav.main")} className="flex flex-col">
            {SECTIONS.map((section) => (
              <SectionLink key={section.id} {...section} onNavigate={menu.close} />
            ))}
          </nav>
          <div className="mt-3 flex flex-col gap-2">
            <AuthActions part="secondary" stacked />
          </div>
        </div>
      )}
    </header>
  );
}
