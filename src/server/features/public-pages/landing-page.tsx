import type { FastifyInstance } from "fastify";
import { LandingPage } from "../../../web/server-rendered";
import { currentUser } from "../../http/session";
import { landingPreview, previewMetaTags } from "../storefront";
import { LANDING_PAGE_CACHE, SIGNED_IN_LANDING_CACHE } from "./kept-pages";
import type { PublicPageDeps } from "./public-page-deps";
import { renderDocument } from "./render-document";
import { finishPage, sendFinishedPage } from "./respond";

// The title and description as src/web/index.html's (which Vite owns), plus the link preview's tags.
const LANDING_HEAD = (appUrl: string) => `<title>Flatfee · Sell digital products for $10/mo</title>
    ${previewMetaTags(landingPreview(appUrl))}`;

/** The landing page: no data on it, so rendered and compressed once for each header it may show. */
export function registerLandingPage(app: FastifyInstance, deps: PublicPageDeps): void {
  // No data on it: rendered and compressed once, for visitors signed out and signed in (whose header differs).
  const landing = (signedIn: boolean) =>
    finishPage(
      renderDocument({
        assets: deps.assets,
        path: "/",
        headTags: LANDING_HEAD(deps.appUrl),
        page: <LandingPage signedIn={signedIn} />,
      }),
    );
  const landingSignedOut = landing(false);
  const landingSignedIn = landing(true);
  app.get("/", async (request, reply) => {
    reply.header("vary", "cookie");
    const signedIn = Boolean(request.headers.cookie && (await currentUser(deps.auth, request)));
    return signedIn
      ? sendFinishedPage(request, reply, await landingSignedIn, SIGNED_IN_LANDING_CACHE)
      : sendFinishedPage(request, reply, await landingSignedOut, LANDING_PAGE_CACHE);
  });
}
