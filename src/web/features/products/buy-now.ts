import { toast } from "sonner";

/** Buy Now. Checkout arrives with the buying issue; until then it says so. */
export function startCheckout(): void {
  toast.info("Checkout is coming soon", {
    description: "Purchases open shortly. Check back soon to buy this product.",
  });
}
