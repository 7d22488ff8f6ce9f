import { ExternalLink } from "lucide-react";
import type { ReactNode } from "react";
import type { PublicProduct } from "../../../contracts/products";
import { useI18n } from "../../lib/i18n";
import { ProductCover } from "../products/product-cover";
import { PurchasePanel } from "../products/purchase-panel";
import { SellerBlock } from "../products/seller-block";

const linkClasses =
  "inline-flex items-center gap-1 rounded-md text-muted outline-none transition-colors hover:text-ink focus-visible:ring-2 focus-visible:ring-brand-500";

/**
 * /embed/product/{id}: the product page made compact for the overlay of the embeddable buy button
 * (another site frames it). The same cover, byline and purchase panel as /product/{id}; the page's
 * `<base target="_top">` (public-pages/embed-page.tsx) sends Buy Now and every link and form to the
 * top window, so Checkout never opens inside the frame. Rendered on the server, never hydrated.
 */
export function EmbedProductPage({
  product,
  source,
}: {
  product: PublicProduct;
  /** The embedding site (and the link's utm fields): carried by Buy Now and the full page's link. */
  source?: Record<string, string> | undefined;
}) {
  const { t, rich } = useI18n();
  const sourceQuery = source && Object.keys(source).length > 0 ? `?${new URLSearchParams(source)}` : "";
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-5 sm:px-6">
      <article className="grid gap-6 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="min-w-0 space-y-4">
          <ProductCover
            cover={product.cover}
            priority
            sizes="(min-width: 640px) 336px, 100vw"
            title={product.title}
            className="aspect-[1200/630] w-full rounded-xl border border-line"
          />
          <h1 className="text-xl font-bold tracking-tight wrap-anywhere text-ink sm:text-2xl">
            {product.title}
          </h1>
          <SellerBlock seller={product.seller} />
          {product.description && (
            <p className="line-clamp-6 text-sm leading-relaxed wrap-anywhere whitespace-pre-line text-ink/85">
              {product.description}
            </p>
          )}
        </div>
        <div className="min-w-0">
          <PurchasePanel product={product} source={source} />
        </div>
      </article>
      <footer className="mt-6 flex flex-wrap items-center justify-between gap-3 border-t border-line pt-4 text-xs">
        <a href={`/product/${product.id}${sourceQuery}`} className={linkClasses}>
          {t("embed.openFull")}
          <ExternalLink className="size-3.5" aria-hidden="true" />
        </a>
        <a href="/" className={linkClasses}>
          {rich<ReactNode>("footer.poweredBy", {
            b: (chunks) => (
              <span key="brand" className="font-semibold">
                {chunks}
              </span>
            ),
          })}
        </a>
      </footer>
    </main>
  );
}

/** A product that is gone (deleted, or its store no longer public): said inside the overlay. */
export function EmbedProductNotFound() {
  const { t } = useI18n();
  return (
    <main
      id="main"
      className="mx-auto flex min-h-[50vh] max-w-md flex-col items-center justify-center px-4 py-16 text-center"
    >
      <h1 className="text-xl font-bold tracking-tight text-ink">{t("embed.unavailableTitle")}</h1>
      <p className="mt-2 text-sm text-muted">{t("embed.unavailableBody")}</p>
    </main>
  );
}
