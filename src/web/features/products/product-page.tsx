import { useQuery } from "@tanstack/react-query";
import { Navigate, useParams } from "react-router";
import type { PublicProduct } from "../../../contracts/products";
import { PageShell } from "../../components/layout/page-shell";
import { PageSpinner } from "../../components/ui/spinner";
import { ProductCover } from "./product-cover";
import { publicProductQuery } from "./products-api";
import { PurchasePanel } from "./purchase-panel";
import { SellerBlock } from "./seller-block";

function ProductDetails({ product }: { product: PublicProduct }) {
  return (
    <article className="mx-auto grid max-w-6xl gap-8 px-4 py-8 sm:px-6 sm:py-12 lg:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)] lg:gap-12">
      <title>{`${product.title} · Flatfee`}</title>
      <ProductCover
        url={product.coverImageUrl}
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
        <PurchasePanel product={product} />
      </div>
    </article>
  );
}

/** /product/{id}: public; a missing or inactive product sends the visitor home (SPEC section 2). */
export function ProductPage() {
  const { productId = "" } = useParams();
  const { data: product, isPending, isError } = useQuery(publicProductQuery(productId));
  if (isError) return <Navigate to="/" replace />;
  return (
    <PageShell>
      {isPending ? <PageSpinner label="Loading product" /> : <ProductDetails product={product} />}
    </PageShell>
  );
}
