import type { FastifyInstance } from "fastify";
import { registerBuyerPages } from "./buyer-pages";
import { registerEmbedPage } from "./embed-page";
import { keptPages } from "./kept-pages";
import { registerLandingPage } from "./landing-page";
import { registerPageForms } from "./page-forms";
import { registerProductPage } from "./product-page";
import type { PublicPageDeps } from "./public-page-deps";
import { registerSiteFiles } from "./site-files";
import { registerStorePage } from "./store-page";

/**
 * The public pages, rendered on the server with the web app's components and the public API's
 * functions, one file each: the landing page, /product/{id}, /store/{userId}, the buyer's /success and
 * /download/{token} (buyer-pages.tsx), the embed frame, robots.txt and the sitemap, and the forms they
 * post (page-forms.tsx). They work without JavaScript; see render-document.tsx. Store and product pages
 * are kept finished per instance (kept-pages.ts).
 */
export function registerPublicPages(app: FastifyInstance, deps: PublicPageDeps): void {
  registerLandingPage(app, deps);
  registerSiteFiles(app, deps);
  const kept = keptPages(app, deps);
  registerProductPage(app, deps, kept);
  registerStorePage(app, deps, kept);
  registerBuyerPages(app, deps);
  registerEmbedPage(app, deps, kept);
  registerPageForms(app, deps);
}
