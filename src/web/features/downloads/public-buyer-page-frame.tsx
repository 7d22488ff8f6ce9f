import type { ReactNode } from "react";
import { PublicPageShell } from "../../components/layout/public-page-shell";

export const BUYER_PAGE_CONTENT = "mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 sm:py-14";

/**
 * The frame of the buyer's pages the server renders (success, download): the same as the library's
 * (buyer-page-frame.tsx), without script; the server writes the title.
 */
export function PublicBuyerPageFrame({ children }: { children: ReactNode }) {
  return (
    <PublicPageShell>
      <div className={BUYER_PAGE_CONTENT}>{children}</div>
    </PublicPageShell>
  );
}
