import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { toast } from "sonner";
import { BILLING_MESSAGES, redirectSchema } from "../../../contracts/seller";
import { ApiError, api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";

/** The three trips to Stripe: plan checkout, billing portal, Connect onboarding (product rules, The calls it makes). */
export type StripeDestination = "checkout" | "portal" | "onboarding";

const ENDPOINTS: Record<StripeDestination, string> = {
  checkout: "/api/billing/checkout",
  portal: "/api/billing/portal",
  onboarding: "/api/payouts/onboarding",
};

export type FailureToast = { title: string; description?: string };

/**
 * The toast of product rules, Error catalogue for a failed trip, or null when the failure was already toasted
 * globally (network failure, status 500 or more).
 */
export function redirectFailureToast(destination: StripeDestination, error: unknown): FailureToast | null {
  if (error instanceof TypeError) return null;
  if (error instanceof ApiError && error.status >= 500) return null;
  const serverMessage = error instanceof ApiError ? { description: error.message } : {};
  switch (destination) {
    case "checkout":
      return { title: BILLING_MESSAGES.subscribeFailed, ...serverMessage };
    case "portal":
      return { title: BILLING_MESSAGES.portalFailed, ...serverMessage };
    case "onboarding":
      return { title: BILLING_MESSAGES.connectFailedTitle, description: BILLING_MESSAGES.connectFailed };
  }
}

/**
 * Asks the server for a Stripe URL and sends the browser there. `busy` stays true until the
 * browser has left, and is reset if the user comes back with the Back button (page cache).
 */
export function useStripeRedirect(destination: StripeDestination, userId: string) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => api(ENDPOINTS[destination], { method: "POST", schema: redirectSchema }),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => {
      const failure = redirectFailureToast(destination, error);
      if (failure)
        toast.error(failure.title, failure.description ? { description: failure.description } : {});
      // A refusal (already subscribed, plan not usable) means what we show is out of date.
      if (error instanceof ApiError)
        void queryClient.invalidateQueries({ queryKey: sellerKeys.status(userId) });
    },
  });

  const { reset } = mutation;
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener("pageshow", onPageShow);
    return () => window.removeEventListener("pageshow", onPageShow);
  }, [reset]);

  return { go: () => mutation.mutate(), busy: mutation.isPending || mutation.isSuccess };
}
