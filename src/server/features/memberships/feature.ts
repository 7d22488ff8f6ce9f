import type { Feature } from "../feature";
import { addStripeEventHandlers } from "../webhooks";
import { membershipEventHandlers } from "./events/membership-events";
import { reconcileJobHandlers } from "./reconcile-memberships";
import { renewalReminderJobHandler } from "./renewal-reminders";
import { registerMembershipRoutes } from "./routes";

/** Memberships: Stripe's subscription and invoice events on sellers' accounts, kept as memberships; members' own actions. */
export const membershipsFeature: Feature = {
  name: "memberships",
  register: ({ server, fulfilment, db, events, auth, now, stripeEvents, jobs }) => {
    addStripeEventHandlers(stripeEvents.connect, membershipEventHandlers({ ...fulfilment, db, now }));
    registerMembershipRoutes(server, { ...fulfilment, db, events, auth, now });
    for (const handler of reconcileJobHandlers({ ...fulfilment, db, events, now })) jobs.register(handler);
    jobs.register(renewalReminderJobHandler({ ...fulfilment, db }));
  },
};
