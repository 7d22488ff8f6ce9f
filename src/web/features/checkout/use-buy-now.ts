import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { toast } from "sonner";
import { redirectSchema } from "../../../contracts/seller";
import { isAlreadyReported } from "../../lib/already-reported";
import { ApiError, api } from "../../lib/api";
import { recordError } from "../../lib/report-error";
import { productKeys } from "../products/products-api";

/**
 * Buy Now: creates a Stripe Checkout session for the product and sends the buyer there. Every
 * failure is logged locally (SPEC section 8); the buyer is also told, since otherwise the button
 * would just do nothing. Sold out or not purchasable any more refreshes the product page.
 */
export function useBuyNow(productId: string) {
  const queryClient = useQueryClient();
  const { mutate, isPending, isSuccess, reset } = useMutation({
    mutationFn: () => api("/api/checkout", { method: "POST", body: { productId }, schema: redirectSchema }),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => {
      // Network failures and 5xx are already logged and toasted by the API client.
      if (isAlreadyReported(error)) return;
      recordError("error", error);
      toast.error("Checkout failed", { description: error.message });
      if (error instanceof ApiError && error.status === 409) {
        void queryClient.invalidateQueries({ queryKey: productKeys.public(productId) });
      }
    },
  });

  // Coming back from Stripe with the browser's Back button restores this page as it was left.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener("pageshow", onPageShow);
    return () => window.removeEventListener("pageshow", onPageShow);
  }, [reset]);

  return { buyNow: () => mutate(), isBusy: isPending || isSuccess };
}
