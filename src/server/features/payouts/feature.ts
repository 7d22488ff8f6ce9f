import type { Feature } from "../feature";
import { renameAccountJobHandler } from "./connected-account-name";
import { accountUpdatedHandler } from "./events/account-updated";
import { registerPayoutRoutes } from "./routes";

/** Sellers' connected Stripe accounts: onboarding, their updates, and the store's name on them. */
export const payoutsFeature: Feature = {
  name: "payouts",
  register: ({ server, db, stripe, appUrl, auth, now, stripeEvents, jobs }) => {
    registerPayoutRoutes(server, { db, stripe, appUrl, auth, now });
    stripeEvents.connect["account.updated"] = accountUpdatedHandler(stripe);
    jobs.register(renameAccountJobHandler({ db, stripe }));
  },
};
