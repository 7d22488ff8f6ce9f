import type { Feature } from "../feature";
import { registerTaxReportRoutes } from "./routes";

/** The quarterly tax report (page and CSV) and the tax guide (docs/tax-and-invoices.md). */
export const taxReportsFeature: Feature = {
  name: "tax-reports",
  register: ({ server, db, auth, now }) => registerTaxReportRoutes(server, { db, auth, now }),
};
