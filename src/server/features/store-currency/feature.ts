import type { Feature } from "../feature";
import { registerStoreCurrencyRoutes } from "./routes";

/** The store currency and Adaptive Pricing (docs/money.md). */
export const storeCurrencyFeature: Feature = {
  name: "store-currency",
  register: ({ server, db, stripe, events, auth, now }) => {
    registerStoreCurrencyRoutes(server, { db, stripe, events, auth, now });
  },
};
