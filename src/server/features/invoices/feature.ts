import { checkoutVisitorKey } from "../../http/visitor";
import type { Feature } from "../feature";
import { loadPublicPageAssets } from "../public-pages";
import { registerBuyerInvoiceRoutes } from "./buyer-routes";
import { registerInvoiceRoutes } from "./routes";

/**
 * Invoices and credit notes (docs/tax-and-invoices.md): issued by invoicesStep in every order's
 * transaction (app.ts lists it with the other OrderChanges steps); the seller's list, PDFs and ZIP
 * export; the buyer's signed PDF links and billing-details page (a new EU VAT ID checked with VIES).
 * The seller API reads them through index.ts; each new document queues `invoice.issued`.
 */
export const invoicesFeature: Feature = {
  name: "invoices",
  register: async ({ server, db, auth, linkKey, now, webDistDir, appUrl, authSecret, tax }) => {
    registerInvoiceRoutes(server, { db, auth });
    registerBuyerInvoiceRoutes(server, {
      db,
      linkKey,
      now,
      appUrl,
      vatChecker: tax.vatChecker,
      visitorKey: checkoutVisitorKey(authSecret),
      assets: await loadPublicPageAssets(webDistDir),
    });
  },
};
