import { Button } from "../../components/ui/button";
import { useBuyNow } from "./use-buy-now";

/** Buy Now: busy while the checkout is created, then the browser goes to Stripe Checkout. */
export function BuyNowButton({ productId, disabled = false }: { productId: string; disabled?: boolean }) {
  const { buyNow, isBusy } = useBuyNow(productId);
  return (
    <Button size="lg" className="w-full" disabled={disabled || isBusy} aria-busy={isBusy} onClick={buyNow}>
      {isBusy ? "Redirecting to checkout..." : "Buy Now"}
    </Button>
  );
}
