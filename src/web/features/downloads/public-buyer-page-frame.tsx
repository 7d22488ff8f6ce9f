import type { ReactNode } from "react";
import { type Creator, CreatorPageShell } from "../../components/layout/creator-page-shell";

export const BUYER_PAGE_CONTENT = "mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 sm:py-14";

/**
 * The frame of the buyer's pages the server renders (success, download): the creator's frame, since
 * the purchase is theirs (null while no purchase is known: a forged link, an unknown order). The
 * library lists several creators' purchases and keeps the site's frame (buyer-page-frame.tsx). The
 * server writes the title. Translated (docs/i18n.md), so they offer the language switcher.
 */
export function PublicBuyerPageFrame({
  creator,
  children,
}: {
  creator: Creator | null;
  children: ReactNode;
}) {
  return (
    <CreatorPageShell creator={creator} languageSwitcher>
      <div className={BUYER_PAGE_CONTENT}>{children}</div>
    </CreatorPageShell>
  );
}
