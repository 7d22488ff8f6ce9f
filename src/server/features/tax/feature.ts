import type { Feature } from "../feature";
import { taxSettingsUpdatedHandler } from "./events/tax-settings-updated";
import { registerTaxRoutes } from "./routes";

/** Tax at checkout (Stripe Tax on the seller's account), business buyers and the withdrawal waiver. */
export const taxFeature: Feature = {
  name: "tax",
  register: ({ server, db, events, stripe, auth, now, stripeEvents, tax }) => {
    registerTaxRoutes(server, { db, events, stripe, auth, now, stripeDashboardUrl: tax.stripeDashboardUrl });
    stripeEvents.connect["tax.settings.updated"] = taxSettingsUpdatedHandler(stripe);
  },
};
