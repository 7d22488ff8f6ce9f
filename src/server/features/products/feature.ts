import type { Feature } from "../feature";
import { registerProductRoutes } from "./routes";

/** The seller's products. */
export const productsFeature: Feature = {
  name: "products",
  register: ({ server, db, storage, auth, now, events }) =>
    registerProductRoutes(server, { db, storage, auth, now, events }),
};
