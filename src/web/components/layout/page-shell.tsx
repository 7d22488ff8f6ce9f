import type { ReactNode } from "react";
import { SiteFooter } from "./site-footer";
import { SiteHeader } from "./site-header";

/**
 * The public site frame: header, the page, footer. A page translated for buyers (the library) offers
 * the language switcher in the footer.
 */
export function PageShell({
  children,
  languageSwitcher = false,
}: {
  children: ReactNode;
  languageSwitcher?: boolean;
}) {
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
      <main id="main" className="flex-1">
        {children}
      </main>
      <SiteFooter languageSwitcher={languageSwitcher} />
    </div>
  );
}
