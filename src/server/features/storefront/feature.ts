import type { Feature } from "../feature";
import { registerStorefrontRoutes } from "./routes";

/** The store's settings and views. */
export const storefrontFeature: Feature = {
  name: "storefront",
  register: ({ server, db, storage, auth, events, authSecret, now }) =>
    registerStorefrontRoutes(server, { db, storage, auth, events, secret: authSecret, now }),
};
