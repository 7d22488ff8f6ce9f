import type { Feature } from "../feature";
import { loadEmbedScript } from "./embed-script";
import { registerEmbedRoutes } from "./routes";

/** The embed script and its products. */
export const embedFeature: Feature = {
  name: "embed",
  register: async ({ server, db, now, webDistDir, tax }) =>
    registerEmbedRoutes(server, {
      db,
      now,
      script: await loadEmbedScript(webDistDir),
      buyerCountryHeader: tax.buyerCountryHeader,
    }),
};
