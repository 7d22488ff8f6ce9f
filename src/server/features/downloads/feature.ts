import type { Feature } from "../feature";
import { registerDownloadRoutes } from "./routes";
import { storageLinkGate } from "./storage-link-gate";

/** Buyers' downloads through their links, and the gate the local storage's download links pass. */
export const downloadsFeature: Feature = {
  name: "downloads",
  register: (context) => {
    const { server, events, db, storage, linkKey, outbox, appUrl, now, tax } = context;
    registerDownloadRoutes(server, {
      events,
      db,
      storage,
      linkKey,
      outbox,
      appUrl,
      now,
      ...(tax.buyerCountryHeader ? { buyerCountryHeader: tax.buyerCountryHeader } : {}),
    });
    context.fileLinkGates.downloadAllowed = storageLinkGate(db, now);
  },
};
