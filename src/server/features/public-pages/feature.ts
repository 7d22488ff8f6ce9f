import { checkoutDeps } from "../checkout";
import type { Feature } from "../feature";
import { loadPublicPageAssets } from "./page-assets";
import { registerPublicPages } from "./routes";

/** The server-rendered pages buyers see, and their forms. */
export const publicPagesFeature: Feature = {
  name: "public-pages",
  register: async (context) => {
    const { server, db, auth, appUrl, events, outbox, linkKey, fulfilment, storage, now, webDistDir } =
      context;
    registerPublicPages(server, {
      db,
      auth,
      appUrl,
      assets: await loadPublicPageAssets(webDistDir),
      events,
      checkout: checkoutDeps(context),
      resend: { db, outbox, appUrl, linkKey },
      buyer: { ...fulfilment, db, events, storage },
      now,
    });
  },
};
