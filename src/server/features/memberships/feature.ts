import type { Feature } from "../feature";
import { membershipEventHandlers } from "./events/membership-events";

/** Memberships: Stripe's subscription and invoice events on sellers' accounts, kept as memberships. */
export const membershipsFeature: Feature = {
  name: "memberships",
  register: ({ fulfilment, db, now, stripeEvents }) => {
    Object.assign(stripeEvents.connect, membershipEventHandlers({ ...fulfilment, db, now }));
  },
};
