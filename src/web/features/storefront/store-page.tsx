import { type LucideIcon, PackageOpen, Store } from "lucide-react";
import type { ReactNode } from "react";
import type { Storefront } from "../../../contracts/products";
import { CreatorPageShell, creatorOf, useStoreName } from "../../components/layout/creator-page-shell";
import { Button } from "../../components/ui/button";
import { useI18n } from "../../lib/i18n";
import { StoreAvatar } from "./store-avatar";
import { StoreProductCard } from "./store-product-card";

function StoreHeader({ seller }: { seller: Storefront["seller"] }) {
  const name = useStoreName()(seller.storeName);
  return (
    <header className="flex flex-col items-center text-center">
      <StoreAvatar
        url={seller.pictureUrl}
        name={seller.storeName}
        className="size-24 shadow-card ring-4 ring-white"
      />
      <h1 className="mt-5 text-3xl font-bold tracking-tight wrap-anywhere text-ink sm:text-4xl">{name}</h1>
      {seller.tagline && <p className="mt-2 text-lg wrap-anywhere text-brand-700">{seller.tagline}</p>}
      {seller.description && (
        <p className="mt-4 max-w-2xl text-base leading-relaxed wrap-anywhere whitespace-pre-line text-muted">
          {seller.description}
        </p>
      )}
    </header>
  );
}

/** `Heading` is the title's level in the page: the store's empty grid is under its h1, a missing store has none. */
function EmptyState({
  icon: Icon,
  title,
  heading: Heading,
  children,
}: {
  icon: LucideIcon;
  title: string;
  heading: "h1" | "h2";
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-16 text-center">
      <Icon className="size-8 text-slate-500" aria-hidden="true" />
      <Heading className="mt-4 text-base font-medium text-ink">{title}</Heading>
      {children}
    </div>
  );
}

function StoreContent({ store, linkQuery }: { store: Storefront; linkQuery?: string | undefined }) {
  const { t } = useI18n();
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
      <StoreHeader seller={store.seller} />
      <section aria-label={t("store.products")} className="mt-12">
        {store.products.length === 0 ? (
          <EmptyState icon={PackageOpen} heading="h2" title={t("store.empty")} />
        ) : (
          <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {store.products.map((product, index) => (
              <li key={product.id} className="flex min-w-0">
                {/* Only the first cover is fetched first: on a phone it is the one on screen, and covers
                    fetched together with high priority slow each other down. */}
                <StoreProductCard
                  product={product}
                  taxNote={store.seller.taxNote}
                  priority={index === 0}
                  linkQuery={linkQuery}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/**
 * /store/{userId}, rendered on the server (features/public-pages); the page's script counts the view.
 * `linkQuery` passes where the visitor came from on to the product pages, for the sale's attribution.
 */
export function StorePage({ store, linkQuery }: { store: Storefront; linkQuery?: string | undefined }) {
  return (
    <CreatorPageShell
      creator={creatorOf(store.seller)}
      languageSwitcher
      reportHref={`/store/${store.seller.id}/report`}
    >
      <StoreContent store={store} linkQuery={linkQuery} />
    </CreatorPageShell>
  );
}

/** An unknown store, or one that is no longer public (answered with 404). */
export function StoreNotFoundPage() {
  const { t } = useI18n();
  return (
    <CreatorPageShell creator={null} languageSwitcher>
      <div className="mx-auto max-w-xl px-4 py-16">
        <EmptyState icon={Store} heading="h1" title={t("notFound.store.title")}>
          <p className="mt-1 text-sm text-muted">{t("notFound.store.body")}</p>
          <Button asChild className="mt-6">
            <a href="/">{t("notFound.returnHome")}</a>
          </Button>
        </EmptyState>
      </div>
    </CreatorPageShell>
  );
}
