import type { Feature } from "../feature";
import { registerLicenseRoutes } from "./routes";

/** License keys: the seller's switch and the public verification. */
export const licensesFeature: Feature = {
  name: "licenses",
  register: ({ server, db, auth, events, now, tax }) =>
    registerLicenseRoutes(server, {
      db,
      auth,
      events,
      now,
      ...(tax.buyerCountryHeader ? { buyerCountryHeader: tax.buyerCountryHeader } : {}),
    }),
};
