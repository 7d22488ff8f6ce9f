import type { Feature } from "../feature";
import { registerUploadRoutes } from "./routes";

/** Upload intents, the local storage links, and the checks of every file. */
export const uploadsFeature: Feature = {
  name: "uploads",
  register: ({ server, db, storage, auth, virusScanner, fileLinkGates }) => {
    // A download link must never be served unchecked: the downloads feature gives the gate first.
    if (!fileLinkGates.downloadAllowed) throw new Error("Register the downloads feature before uploads");
    registerUploadRoutes(server, {
      db,
      storage,
      auth,
      ...(virusScanner ? { virusScanner } : {}),
      fileLinkGates,
    });
  },
};
