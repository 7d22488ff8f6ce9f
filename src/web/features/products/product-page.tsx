import type { PublicProduct } from "../../../contracts/products";
import { PublicPageShell } from "../../components/layout/public-page-shell";
import { ProductCover } from "./product-cover";
import { type PurchaseAnswer, PurchasePanel } from "./purchase-panel";
import { SellerBlock } from "./seller-block";

/**
 * /product/{id}, rendered on the server (features/public-pages): every action is a plain form, so
 * it works without JavaScript. `answer` is what the last form post said (a refusal, a resent link).
 */
export function ProductPage({ product, answer }: { product: PublicProduct; answer?: PurchaseAnswer }) {
  return (
    <PublicPageShell>
      <article className="mx-auto grid max-w-6xl gap-8 px-4 py-8 sm:px-6 sm:py-12 lg:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)] lg:gap-12">
        <ProductCover
          cover={product.cover}
          priority
          sizes="(min-width: 1024px) 576px, 100vw"
          title={product.title}
          className="aspect-[1200/630] w-full rounded-2xl border border-line shadow-card"
        />
        <div className="min-w-0 space-y-6">
          <SellerBlock seller={product.seller} />
          <h1 className="text-2xl font-bold tracking-tight break-words text-ink sm:text-3xl">
            {product.title}
          </h1>
          {product.description && (
            <p className="text-base leading-relaxed break-words whitespace-pre-line text-muted">
              {product.description}
            </p>
          )}
          <PurchasePanel product={product} {...(answer ? { answer } : {})} />
        </div>
      </article>
    </PublicPageShell>
  );
}
