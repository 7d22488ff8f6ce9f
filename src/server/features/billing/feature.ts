import type { Feature } from "../feature";
import { subscriptionEventHandlers } from "./events/subscription-events";
import { registerBillingRoutes } from "./routes";

/** The $10 plan: Checkout, the billing portal, and Stripe's subscription events. */
export const billingFeature: Feature = {
  name: "billing",
  register: ({ server, db, stripe, appUrl, auth, now, stripeEvents }) => {
    registerBillingRoutes(server, { db, stripe, appUrl, auth, now });
    Object.assign(stripeEvents.platform, subscriptionEventHandlers(stripe));
  },
};
