import type { Feature } from "../feature";
import { queueBroadcastJobHandler } from "./queue-broadcasts";
import { registerAudienceRoutes } from "./routes";
import { unsubscribeKey } from "./unsubscribe";

/** Customers, emails to buyers (and their batching job), unsubscribe pages. */
export const audienceFeature: Feature = {
  name: "audience",
  register: async ({ server, db, outbox, appUrl, authSecret, linkKey, now, auth, webDistDir, jobs }) => {
    const deps = { db, outbox, appUrl, unsubscribeKey: unsubscribeKey(authSecret), linkKey, now };
    await registerAudienceRoutes(server, { ...deps, auth, webDistDir });
    jobs.register(queueBroadcastJobHandler(deps));
  },
};
