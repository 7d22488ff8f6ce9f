import type { Feature } from "../feature";
import { checkoutDeps } from "./checkout-deps";
import { registerCheckoutRoutes } from "./routes";

/** Buy Now and free claims (the JSON routes; the product page's forms are public-pages'). */
export const checkoutFeature: Feature = {
  name: "checkout",
  register: (context) => registerCheckoutRoutes(context.server, checkoutDeps(context)),
};
