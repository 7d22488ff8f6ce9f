import type { Feature } from "../feature";
import { addStripeEventHandlers } from "../webhooks";
import { autoSubmitJobHandler } from "./auto-submit";
import { disputeEventHandlers } from "./dispute-events";
import { registerDisputeRoutes } from "./routes";

/** Disputes of one-time sales (docs/disputes.md): Stripe's dispute events, the dispute page, auto-submit. */
export const disputesFeature: Feature = {
  name: "disputes",
  register: ({ server, db, events, stripe, auth, now, outbox, appUrl, stripeEvents, jobs, orderChanges }) => {
    addStripeEventHandlers(
      stripeEvents.connect,
      disputeEventHandlers({ db, stripe, outbox, appUrl, orderChanges }),
    );
    registerDisputeRoutes(server, { db, events, stripe, auth, now });
    jobs.register(autoSubmitJobHandler({ db, events, stripe }));
  },
};
