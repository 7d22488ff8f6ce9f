import type { Feature } from "../feature";
import { registerEnforcementRoutes } from "./routes";

/** Enforcement (docs/operator.md, "Enforcement"): the console's figures, sellers and actions; sellers' standing and appeals. */
export const enforcementFeature: Feature = {
  name: "enforcement",
  register: ({ server, db, auth, events, outbox, appUrl, now }) =>
    registerEnforcementRoutes(server, { db, auth, events, outbox, appUrl, now }),
};
