import type { Feature } from "../feature";
import { membershipEventHandlers } from "./events/membership-events";
import { registerMembershipRoutes } from "./routes";

/** Memberships: Stripe's subscription and invoice events on sellers' accounts, kept as memberships; members' own actions. */
export const membershipsFeature: Feature = {
  name: "memberships",
  register: ({ server, fulfilment, db, events, auth, now, stripeEvents }) => {
    Object.assign(stripeEvents.connect, membershipEventHandlers({ ...fulfilment, db, now }));
    registerMembershipRoutes(server, { ...fulfilment, db, events, auth, now });
  },
};
