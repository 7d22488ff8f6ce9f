import type { ProductPrice } from "../../../contracts/discounts";
import type { PublicProduct } from "../../../contracts/products";
import { CreatorPageShell, creatorOf } from "../../components/layout/creator-page-shell";
import { useI18n } from "../../lib/i18n";
import { cn } from "../../lib/utils";
import { MembershipTiers } from "./membership-tiers";
import { ProductCover } from "./product-cover";
import { type PurchaseAnswer, PurchasePanel } from "./purchase-panel";
import { SellerBlock } from "./seller-block";

/**
 * /product/{id}, rendered on the server (features/public-pages): every action is a plain form, so
 * it works without JavaScript. `answer` is what the last form post said (a refusal, a resent link);
 * `quote` the price with the buyer's discount code (`?code=`).
 * On a phone the title, price and Buy Now come right after the cover and the description follows; on
 * a wide screen the description sits under the cover, beside them. A membership's tiers, each with its
 * Subscribe form, follow the title on a phone and get a row of their own across the page on a wide screen.
 */
export function ProductPage({
  product,
  quote,
  answer,
  source,
}: {
  product: PublicProduct;
  quote?: ProductPrice | undefined;
  answer?: PurchaseAnswer | undefined;
  /** Where the visit came from, carried by the page's forms (features/analytics/source-fields.tsx). */
  source?: Record<string, string> | undefined;
}) {
  const { t } = useI18n();
  const membership = product.kind === "membership";
  return (
    <CreatorPageShell
      creator={creatorOf(product.seller)}
      languageSwitcher
      reportHref={`/product/${product.id}/report`}
    >
      <article
        className={cn(
          "mx-auto grid max-w-6xl gap-x-12 gap-y-6 px-4 py-6 sm:px-6 sm:py-12 lg:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)] lg:gap-y-10",
          membership ? "lg:grid-rows-[auto_1fr_auto]" : "lg:grid-rows-[auto_1fr]",
        )}
      >
        <ProductCover
          cover={product.cover}
          priority
          sizes="(min-width: 1024px) 576px, 100vw"
          title={product.title}
          className="aspect-[1200/630] w-full rounded-2xl border border-line shadow-card"
        />
        <div className="min-w-0 space-y-6 lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <div className="space-y-4">
            <h1 className="text-2xl font-bold tracking-tight break-words text-ink sm:text-3xl">
              {product.title}
            </h1>
            <SellerBlock seller={product.seller} />
          </div>
          <PurchasePanel
            product={product}
            quote={quote}
            answer={answer}
            source={source}
            tiers={membership ? "apart" : "here"}
          />
        </div>
        {membership && (
          <div className="min-w-0 lg:col-span-2 lg:row-start-3">
            <MembershipTiers product={product} quote={quote} source={source} refused={answer?.buyRefused} />
          </div>
        )}
        {product.description && (
          <section aria-labelledby="about-product" className="min-w-0 lg:col-start-1 lg:row-start-2">
            <h2 id="about-product" className="text-sm font-semibold tracking-wide text-muted uppercase">
              {t("product.about")}
            </h2>
            <p className="mt-3 text-base leading-relaxed break-words whitespace-pre-line text-ink/85">
              {product.description}
            </p>
          </section>
        )}
      </article>
    </CreatorPageShell>
  );
}
