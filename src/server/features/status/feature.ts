import type { Feature } from "../feature";
import { registerStatusRoutes } from "./routes";

/** /api/health and the status page's checks. */
export const statusFeature: Feature = {
  name: "status",
  register: ({ server, db, storage, stripe, outbox }) =>
    registerStatusRoutes(server, { db, storage, stripe, mailTransport: outbox.transport }),
};
