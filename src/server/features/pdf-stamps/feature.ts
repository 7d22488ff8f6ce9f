import type { Feature } from "../feature";
import { registerPdfStamps } from "./routes";
import { makeStampJobHandler } from "./stamp-queue";

/** Buyers' stamped PDFs: the edit page's view and the stamping job. */
export const pdfStampsFeature: Feature = {
  name: "pdf-stamps",
  register: ({ server, db, storage, auth, now, jobs }) => {
    registerPdfStamps(server, { db, auth });
    jobs.register(makeStampJobHandler({ db, storage }, now));
  },
};
