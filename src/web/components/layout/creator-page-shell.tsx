import type { ReactNode } from "react";
import { LOCALE_NAMES, LOCALE_PARAM, LOCALES } from "../../../contracts/i18n/locales";
import { STORE_FALLBACK_NAME } from "../../../contracts/products";
import { StoreAvatar } from "../../features/storefront/store-avatar";
import { useI18n } from "../../lib/i18n";
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

function CreatorHeader({ creator }: { creator: Creator | null }) {
  const identity = creator && (
    <>
      <StoreAvatar url={creator.pictureUrl} name={creator.name} className="size-8" />
      <span className="min-w-0 truncate text-base font-semibold text-ink">{creator.name}</span>
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

/**
 * The languages a translated page can be read in, as plain links (no script): each sets `?lang=`, which
 * the server remembers in a cookie (docs/i18n.md). The current one is marked, not linked.
 */
function LanguageSwitcher() {
  const { t, locale } = useI18n();
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
              <a
                href={`?${LOCALE_PARAM}=${option}`}
                lang={option}
                hrefLang={option}
                className={footerLinkClasses}
              >
                {LOCALE_NAMES[option]}
              </a>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Small print: the page is the creator's, the platform only says it hosts it. */
function CreatorFooter({ languageSwitcher }: { languageSwitcher: boolean }) {
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
        <nav aria-label="Legal">
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
 * for buyers (docs/i18n.md) offers the language switcher in the footer.
 */
export function CreatorPageShell({
  creator,
  children,
  languageSwitcher = false,
}: {
  creator: Creator | null;
  children: ReactNode;
  languageSwitcher?: boolean;
}) {
  return (
    <div className="flex min-h-dvh flex-col">
      <CreatorHeader creator={creator} />
      <main id="main" className="flex-1">
        {children}
      </main>
      <CreatorFooter languageSwitcher={languageSwitcher} />
    </div>
  );
}
