import type { Feature } from "../feature";
import { registerProductRoutes } from "./routes";

/** The seller's products. */
export const productsFeature: Feature = {
  name: "products",
  register: ({ server, db, stripe, storage, auth, now, events }) =>
    registerProductRoutes(server, { db, stripe, storage, auth, now, events }),
};
