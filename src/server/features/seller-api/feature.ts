import type { Feature } from "../feature";
import { registerApiKeyRoutes } from "./routes";
import { registerSellerApiRoutes } from "./v1-routes";

/** API keys and the seller's REST API. */
export const sellerApiFeature: Feature = {
  name: "seller-api",
  register: ({ server, db, auth, now, fulfilment, events }) => {
    registerApiKeyRoutes(server, { db, auth, now });
    registerSellerApiRoutes(server, { ...fulfilment, db, events, now });
  },
};
