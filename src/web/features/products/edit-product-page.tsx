import { FileQuestion } from "lucide-react";
import { Link, useParams } from "react-router";
import { Button } from "../../components/ui/button";
import { NoticeCard } from "../../components/ui/notice-card";
import { RetryNotice } from "../../components/ui/retry-notice";
import { PageSpinner } from "../../components/ui/spinner";
import { ApiError } from "../../lib/api";
import { ProductUpdateCard } from "../audience/product-update-card";
import { SellerGate } from "../seller/seller-gate";
import { ProductFormThenLive } from "./product-live-panel";
import { useSellerProduct } from "./products-api";

/** /dashboard/products/:productId/edit: behind the same gates as /new. */
export function EditProductPage() {
  const { productId = "" } = useParams();
  return <SellerGate>{({ user }) => <EditProduct userId={user.id} productId={productId} />}</SellerGate>;
}

function EditProduct({ userId, productId }: { userId: string; productId: string }) {
  const { data: product, error, isPending, refetch } = useSellerProduct(userId, productId);

  if (isPending) return <PageSpinner label="Loading the product" />;
  if (error instanceof ApiError && error.status === 404) {
    return (
      <NoticeCard icon={FileQuestion} tone="neutral" title="Product not found">
        <p className="mt-2 text-sm text-muted">It may have been deleted, or it belongs to another account.</p>
        <Button asChild className="mt-6">
          <Link to="/dashboard">Back to Dashboard</Link>
        </Button>
      </NoticeCard>
    );
  }
  if (!product) {
    return <RetryNotice message="The product could not be loaded." onRetry={() => void refetch()} />;
  }
  return (
    <>
      <ProductFormThenLive
        title="Edit Product"
        subtitle="Changes go live for buyers as soon as you save."
        userId={userId}
        product={product}
        liveHeading="Your changes are live!"
        liveActions={(_saved, again) => (
          <>
            <Button variant="secondary" onClick={again}>
              Keep editing
            </Button>
            <Button asChild>
              <Link to="/dashboard">Go to Dashboard</Link>
            </Button>
          </>
        )}
      />
      <ProductUpdateCard userId={userId} productId={product.id} />
    </>
  );
}
