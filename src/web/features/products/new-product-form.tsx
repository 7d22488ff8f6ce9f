import { Link } from "react-router";
import { Button } from "../../components/ui/button";
import { ProductFormThenLive } from "./product-live-panel";

/** /new: the product form, then, once published, its link and preview ("it's live"). */
export function NewProductForm({ userId }: { userId: string }) {
  return (
    <ProductFormThenLive
      title="New Product"
      subtitle="Upload a file, set a price and get one link to share."
      userId={userId}
      liveHeading="Your product is live!"
      liveActions={(published, again) => (
        <>
          <Button variant="ghost" onClick={again}>
            Create another
          </Button>
          <Button asChild variant="secondary">
            <Link to={`/dashboard/products/${published.id}/edit`}>Edit product</Link>
          </Button>
          <Button asChild>
            <Link to="/dashboard">Go to Dashboard</Link>
          </Button>
        </>
      )}
    />
  );
}
