import { Copy, Eye, PackagePlus, Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { PRODUCT_MESSAGES, type SellerProduct } from "../../../contracts/products";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { copyToClipboard } from "../../lib/clipboard";
import { ShareEmbedDialog } from "../embed/share-embed-dialog";
import { DeleteProductDialog } from "./delete-product-dialog";
import { listingPriceLabel } from "./membership-price";
import { ProductCover } from "./product-cover";
import { productUrl, useRecentProducts } from "./products-api";
import { sellerStockLabel } from "./stock";

function ProductRow({ product, onDelete }: { product: SellerProduct; onDelete: () => void }) {
  return (
    <li className="flex flex-wrap items-center gap-3 px-4 py-3 sm:flex-nowrap sm:px-6">
      <ProductCover
        url={product.coverThumbnailUrl ?? product.coverImageUrl}
        title={product.title}
        className="h-12 w-[5.7rem] shrink-0 rounded-lg border border-line"
        iconClassName="size-5"
      />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-ink" title={product.title}>
          {product.title}
        </p>
        <p className="text-sm text-muted">
          <span className="font-semibold text-ink tabular-nums">{listingPriceLabel(product)}</span>
          <span aria-hidden="true"> · </span>
          <span className="sr-only">, </span>
          {product.kind === "membership" ? "Membership" : sellerStockLabel(product)}
        </p>
      </div>
      <div className="flex w-full items-center justify-end gap-1 sm:w-auto">
        <Button asChild variant="secondary" size="sm">
          <Link reloadDocument to={`/product/${product.id}`} aria-label={`View ${product.title}`}>
            <Eye aria-hidden="true" />
            View
          </Link>
        </Button>
        <Button asChild variant="secondary" size="sm">
          <Link to={`/dashboard/products/${product.id}/edit`} aria-label={`Edit ${product.title}`}>
            <Pencil aria-hidden="true" />
            Edit
          </Link>
        </Button>
        <Button
          variant="ghost"
          size="sm"
          aria-label={`Copy link to ${product.title}`}
          onClick={() =>
            void copyToClipboard(productUrl(window.location.origin, product.id), PRODUCT_MESSAGES.linkCopied)
          }
        >
          <Copy aria-hidden="true" />
        </Button>
        <ShareEmbedDialog product={product} variant="ghost" size="sm" iconOnly />
        <Button
          variant="ghost"
          size="sm"
          aria-label={`Delete ${product.title}`}
          onClick={onDelete}
          className="text-red-600 hover:bg-red-50 hover:text-red-700"
        >
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
    </li>
  );
}

function NoProducts() {
  return (
    <div className="m-6 flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-slate-50/60 px-6 py-10 text-center">
      <PackagePlus className="size-6 text-slate-400" aria-hidden="true" />
      <p className="mt-3 text-sm font-medium text-ink">No products yet</p>
      <p className="mt-1 max-w-sm text-sm text-muted">
        Upload your first file, set a price and share its link.
      </p>
      <Button asChild className="mt-5">
        <Link to="/new">New Product</Link>
      </Button>
    </div>
  );
}

/** The seller's five latest products with View, Edit, copy link and delete (product rules, Screens and routes). */
export function RecentProducts({ userId }: { userId: string }) {
  const { data, isPending, isError, refetch } = useRecentProducts(userId);
  const [deleting, setDeleting] = useState<string | null>(null);
  return (
    <Card role="region" aria-label="Recent Products">
      <CardHeader className="pb-4">
        <CardTitle>Recent Products</CardTitle>
        {data && data.total > 0 && (
          <CardDescription>
            {data.products.length} of {data.total} shown, newest first
          </CardDescription>
        )}
      </CardHeader>
      {isPending ? (
        <div className="flex justify-center py-10">
          <Spinner label="Loading products" />
        </div>
      ) : isError ? (
        <RetryNotice
          message="We couldn't load your products."
          onRetry={() => void refetch()}
          className="m-6"
        />
      ) : data?.products.length ? (
        <ul className="divide-y divide-line border-t border-line">
          {data.products.map((product) => (
            <ProductRow key={product.id} product={product} onDelete={() => setDeleting(product.id)} />
          ))}
        </ul>
      ) : (
        <NoProducts />
      )}
      <DeleteProductDialog userId={userId} productId={deleting} onClose={() => setDeleting(null)} />
    </Card>
  );
}
