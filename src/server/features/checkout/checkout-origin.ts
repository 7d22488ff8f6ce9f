import type Stripe from "stripe";

/**
 * Where Buy Now's form ends up: Stripe's hosted Checkout, or the local emulator, which hosts its
 * pages where it answers the API. The pages' CSP must allow it in form-action, since browsers apply
 * form-action to the redirect a form post answers with.
 */
export function checkoutOrigin(stripe: Stripe): string {
  const host = stripe.getApiField("host");
  if (host === "api.stripe.com") return "https://checkout.stripe.com";
  return `${stripe.getApiField("protocol")}://${host}:${stripe.getApiField("port")}`;
}
