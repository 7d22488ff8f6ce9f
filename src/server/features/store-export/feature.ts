import type { Feature } from "../feature";
import { buildStoreExportHandler } from "./build-export";
import { expireStoreExportsHandler } from "./expire-exports";
import { exportLinkKey } from "./export-link";
import { registerStoreExportRoutes } from "./routes";

/**
 * "Export my store" (docs/export-format.md): the creator's archive of their whole store, built by a
 * job, kept 7 days behind a signed link that is emailed; the readers behind it also serve the seller
 * API's export endpoints (index.ts).
 */
export const storeExportFeature: Feature = {
  name: "store-export",
  register: ({ server, db, storage, outbox, auth, now, appUrl, authSecret, jobs, events }) => {
    const deps = { db, storage, outbox, now, appUrl, linkKey: exportLinkKey(authSecret) };
    jobs.register(buildStoreExportHandler(deps), expireStoreExportsHandler(deps));
    registerStoreExportRoutes(server, { ...deps, auth, events });
  },
};
