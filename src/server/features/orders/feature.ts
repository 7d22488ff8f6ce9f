import type { Feature } from "../feature";
import { checkoutSessionHandler } from "./events/checkout-events";
import { registerOrderRoutes } from "./routes";

/** Sales, the success page's lookup, the library, and Stripe's checkout events. */
export const ordersFeature: Feature = {
  name: "orders",
  register: ({ server, fulfilment, db, auth, events, answers, now, stripeEvents }) => {
    registerOrderRoutes(server, { ...fulfilment, db, auth, events, answers, now });
    const settling = { ...fulfilment, db, events };
    stripeEvents.connect["checkout.session.completed"] = checkoutSessionHandler(settling);
    stripeEvents.connect["checkout.session.expired"] = checkoutSessionHandler(settling);
  },
};
