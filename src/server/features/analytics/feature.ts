import type { Feature } from "../feature";
import { registerAnalyticsRoutes } from "./routes";

/** The analytics page and the dashboard's stats. */
export const analyticsFeature: Feature = {
  name: "analytics",
  register: ({ server, db, auth, answers, now, authSecret }) =>
    registerAnalyticsRoutes(server, { db, auth, answers, now, secret: authSecret }),
};
