import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";
import { Logo } from "./logo";
import { useLogout } from "./use-logout";

const APP_LINKS = [
  { to: "/dashboard", label: "Dashboard" },
  { to: "/new", label: "New Product" },
  { to: "/dashboard/customers", label: "Customers" },
  { to: "/settings", label: "Store Settings" },
] as const;

/** The signed-in seller's frame. */
export function AppShell({ children }: { children: ReactNode }) {
  const { logout, isLoggingOut } = useLogout();
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-40 border-b border-line bg-white/80 backdrop-blur-md">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
          <Logo />
          <Button variant="secondary" size="sm" onClick={logout} disabled={isLoggingOut}>
            Logout
          </Button>
        </div>
        <nav aria-label="Seller" className="mx-auto max-w-6xl overflow-x-auto px-2 sm:px-4">
          <ul className="flex gap-1">
            {APP_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  className={({ isActive }) =>
                    cn(
                      "inline-block border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap transition-colors outline-none focus-visible:ring-2 focus-visible:ring-brand-500",
                      isActive ? "border-brand-600 text-ink" : "border-transparent text-muted hover:text-ink",
                    )
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-10 sm:px-6">
        {children}
      </main>
    </div>
  );
}
