import type { Feature } from "../feature";
import { chargeRefundedHandler } from "./events/charge-refunded";
import { registerRefundRoutes } from "./routes";

/** Refunds from the dashboard, and refunds made anywhere (Stripe's charge.refunded). */
export const refundsFeature: Feature = {
  name: "refunds",
  register: ({ server, fulfilment, db, auth, events, now, orderChanges, stripeEvents }) => {
    registerRefundRoutes(server, { ...fulfilment, db, auth, events, now });
    stripeEvents.connect["charge.refunded"] = chargeRefundedHandler(orderChanges);
  },
};
