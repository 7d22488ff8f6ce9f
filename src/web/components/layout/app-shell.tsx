import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { useMediaQuery } from "../../lib/use-media-query";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";
import { Logo } from "./logo";
import { PhoneMenuButton, usePhoneMenu } from "./phone-menu";
import { type NavSection, SELLER_SECTIONS } from "./seller-sections";
import { useLogout } from "./use-logout";

/** Every section of the app's area, grouped, the current one marked (aria-current="page"). */
function SectionNav({
  sections,
  label,
  onNavigate,
}: {
  sections: NavSection[];
  label: string;
  onNavigate?: (() => void) | undefined;
}) {
  return (
    <nav aria-label={label} className="space-y-6">
      {sections.map((group) => (
        <div key={group.label}>
          <p className="px-3 text-xs font-semibold tracking-wide text-muted uppercase">{group.label}</p>
          <ul className="mt-2 space-y-0.5">
            {group.links.map(({ to, label, icon: Icon, end }) => (
              <li key={to}>
                <NavLink
                  to={to}
                  end={end}
                  onClick={onNavigate}
                  className={({ isActive }) =>
                    cn(
                      "flex items-center gap-2.5 rounded-md px-3 py-2 text-sm font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-brand-500",
                      isActive ? "bg-brand-50 text-brand-700" : "text-muted hover:bg-line/50 hover:text-ink",
                    )
                  }
                >
                  <Icon aria-hidden="true" className="size-4 shrink-0" />
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}

/**
 * The signed-in seller's frame: one navigation holding every section of the app, grouped. On a wide
 * screen it is a sidebar; on a phone a menu button opens it under the bar (one copy in the page at a
 * time, so its links' names stay unique), and choosing a section closes it. The operator console uses
 * the same frame with its own sections.
 */
export function AppShell({
  children,
  sections = SELLER_SECTIONS,
  navLabel = "Seller",
}: {
  children: ReactNode;
  sections?: NavSection[];
  navLabel?: string;
}) {
  const { logout, isLoggingOut } = useLogout();
  const isDesktop = useMediaQuery("(min-width: 768px)");
  const menu = usePhoneMenu();

  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-40 border-b border-line bg-white/80 backdrop-blur-md">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
          <Logo />
          <div className="flex items-center gap-1">
            <Button variant="secondary" size="sm" onClick={logout} disabled={isLoggingOut}>
              Logout
            </Button>
            {!isDesktop && <PhoneMenuButton menu={menu} />}
          </div>
        </div>
        {!isDesktop && menu.open && (
          <div
            id={menu.menuId}
            className="max-h-[calc(100dvh-4rem)] overflow-y-auto border-t border-line bg-white px-4 py-4 shadow-sm"
          >
            <SectionNav sections={sections} label={navLabel} onNavigate={menu.close} />
          </div>
        )}
      </header>
      <div className="mx-auto flex w-full max-w-6xl flex-1 gap-8 px-4 sm:px-6">
        {isDesktop && (
          // Hidden by CSS too below the breakpoint: a window made narrow never waits on React to lose it.
          <aside className="hidden w-52 shrink-0 py-10 md:block">
            <div className="sticky top-26">
              <SectionNav sections={sections} label={navLabel} />
            </div>
          </aside>
        )}
        <main id="main" className="min-w-0 flex-1 py-10">
          {children}
        </main>
      </div>
    </div>
  );
}
