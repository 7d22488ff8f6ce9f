import type { Feature } from "../feature";
import { loadPublicPageAssets } from "../public-pages";
import { registerReportPages } from "./report-pages";
import { registerReportRoutes } from "./routes";

/** Reports and takedowns (docs/operator.md, "Reports"): the report form, the operator's queue, the seller's answers. */
export const reportsFeature: Feature = {
  name: "reports",
  register: async ({ server, db, auth, outbox, appUrl, now, webDistDir, virusScanner }) => {
    registerReportPages(server, { db, outbox, appUrl, now, assets: await loadPublicPageAssets(webDistDir) });
    registerReportRoutes(server, { db, auth, outbox, appUrl, now, clamAv: virusScanner !== undefined });
  },
};
