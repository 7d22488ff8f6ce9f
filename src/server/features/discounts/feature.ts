import type { Feature } from "../feature";
import { registerDiscountRoutes } from "./routes";

/** Discount codes. */
export const discountsFeature: Feature = {
  name: "discounts",
  register: ({ server, db, auth, now }) => registerDiscountRoutes(server, { db, auth, now }),
};
