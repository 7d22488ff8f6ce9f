import type { ReactNode } from "react";
import { STORE_FALLBACK_NAME } from "../../../contracts/products";
import { StoreAvatar } from "../../features/storefront/store-avatar";
import { useI18n } from "../../lib/i18n";
import { LanguageSwitcher } from "./language-switcher";
import { Logo } from "./logo";

/** The creator a buyer's page belongs to, as its frame shows them. */
export interface Creator {
  name: string;
  /** Shown by its initial (or a store icon) when null. */
  pictureUrl: string | null;
  /** The creator's store, or null when it is no longer public (the name is then plain text). */
  storeHref: string | null;
}

/** A seller as the public API gives it (product page, store, the seller of a purchase). */
export function creatorOf(
  seller: { id: string; storeName: string | null; pictureUrl: string | null },
  storePublic = true,
): Creator {
  return {
    name: seller.storeName ?? STORE_FALLBACK_NAME,
    pictureUrl: seller.pictureUrl,
    storeHref: storePublic ? `/store/${seller.id}` : null,
  };
}

const focusRing = "rounded-md outline-none focus-visible:ring-2 focus-visible:ring-brand-500";

/** A store's name as a page shows it: the creator's own, or our fallback in the page's language. */
export function useStoreName(): (name: string | null) => string {
  const { t } = useI18n();
  return (name) => (name === null || name === STORE_FALLBACK_NAME ? t("store.fallbackName") : name);
}

function CreatorHeader({ creator }: { creator: Creator | null }) {
  const storeName = useStoreName();
  const identity = creator && (
    <>
      <StoreAvatar url={creator.pictureUrl} name={creator.name} className="size-8" />
      <span className="min-w-0 truncate text-base font-semibold text-ink">{storeName(creator.name)}</span>
    </>
  );
  return (
    <header className="border-b border-line bg-white">
      <div className="mx-auto flex h-14 max-w-6xl items-center px-4 sm:px-6">
        {!creator ? (
          <Logo className="text-base" />
        ) : creator.storeHref ? (
          <a href={creator.storeHref} className={`flex min-w-0 items-center gap-2.5 ${focusRing}`}>
            {identity}
          </a>
        ) : (
          <p className="flex min-w-0 items-center gap-2.5">{identity}</p>
        )}
      </div>
    </header>
  );
}

const footerLinkClasses = `${focusRing} text-muted transition-colors hover:text-ink`;

/** Small print: the page is the creator's, the platform only says it hosts it. */
function CreatorFooter({
  languageSwitcher,
  reportHref,
}: {
  languageSwitcher: boolean;
  reportHref?: string | undefined;
}) {
  const { t, rich } = useI18n();
  return (
    <footer className="border-t border-line bg-white">
      <div className="mx-auto flex max-w-6xl flex-col items-center gap-2 px-4 py-6 text-xs sm:flex-row sm:justify-between sm:px-6">
        <a href="/" className={footerLinkClasses}>
          {rich<ReactNode>("footer.poweredBy", {
            b: (chunks) => (
              <span key="brand" className="font-semibold">
                {chunks}
              </span>
            ),
          })}
        </a>
        {languageSwitcher && <LanguageSwitcher />}
        <nav aria-label={t("footer.legal")}>
          <ul className="flex gap-4">
            <li>
              <a href="/terms" className={footerLinkClasses}>
                {t("footer.terms")}
              </a>
            </li>
            <li>
              <a href="/privacy" className={footerLinkClasses}>
                {t("footer.privacy")}
              </a>
            </li>
            {reportHref && (
              <li>
                <a href={reportHref} rel="nofollow" className={footerLinkClasses}>
                  {t("footer.report")}
                </a>
              </li>
            )}
          </ul>
        </nav>
      </div>
    </footer>
  );
}

/**
 * The frame of a creator's pages (product, store, success, download): their picture and store name at
 * the top, linking to their store, and a small "Powered by Flatfee" at the bottom; no platform
 * navigation or sign-up competing with Buy Now. Without a creator (an unknown store or link), the
 * header shows only Flatfee's name. Server-rendered and never hydrated: links only. A page translated
 * for buyers (docs/i18n.md) offers the language switcher in the footer; a product's or store's page its
 * Report link (`reportHref`: the report form, features/reports).
 */
export function CreatorPageShell({
  creator,
  children,
  languageSwitcher = false,
  reportHref,
}: {
  creator: Creator | null;
  children: ReactNode;
  languageSwitcher?: boolean;
  reportHref?: string | undefined;
}) {
  return (
    <div className="flex min-h-dvh flex-col">
      <CreatorHeader creator={creator} />
      <main id="main" className="flex-1">
        {children}
      </main>
      <CreatorFooter languageSwitcher={languageSwitcher} reportHref={reportHref} />
    </div>
  );
}
