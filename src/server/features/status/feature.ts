import type { Feature } from "../feature";
import { registerStatusRoutes } from "./routes";

/** /api/health (liveness and the status page's checks) and /api/ready (readiness). */
export const statusFeature: Feature = {
  name: "status",
  register: ({ server, db, storage, stripe, outbox, jobs }) =>
    registerStatusRoutes(server, { db, storage, stripe, mailTransport: outbox.transport, jobs }),
};
