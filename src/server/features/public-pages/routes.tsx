import type { FastifyInstance, FastifyReply } from "fastify";
import { LandingPage } from "../../../web/features/marketing/landing-page";
import { ProductPage } from "../../../web/features/products/product-page";
import type { PurchaseAnswer } from "../../../web/features/products/purchase-panel";
import { StoreNotFoundPage, StorePage } from "../../../web/features/storefront/store-page";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import { currentUser, webHeaders } from "../../http/session";
import type { Auth } from "../auth/auth";
import { buyNow, type CheckoutRouteDeps } from "../checkout/routes";
import type { DownloadDeps } from "../downloads/download-link";
import type { resendDownloadLink } from "../downloads/resend-link";
import type { FulfilmentDeps } from "../orders/fulfil-checkout";
import { getPublicProduct } from "../products/public-product";
import { previewTags, productPreview, storePreview } from "../storefront/link-preview";
import { getStorefront } from "../storefront/storefront";
import { registerBuyerPageForms, registerBuyerPages } from "./buyer-pages";
import type { PublicPageAssets } from "./page-assets";
import { renderDocument } from "./render-document";
import { answerResendForm } from "./resend-form";
import { nullWhenNotFound, sendCacheable, sendUncached } from "./respond";

export interface PublicPageDeps {
  db: Database;
  auth: Auth;
  appUrl: string;
  assets: PublicPageAssets;
  checkout: CheckoutRouteDeps;
  resend: Parameters<typeof resendDownloadLink>[0];
  /** The success page's order lookup and the download page's downloads. */
  buyer: FulfilmentDeps & DownloadDeps & { events: EventBus };
  now: () => Date;
}

type ProductRoute = { Params: { productId: string } };
/** Forms post a few short fields; nothing bigger is read. */
const FORM_BODY_LIMIT = 4096;
/**
 * Everyone sees the same page, so shared caches (a CDN) may keep it a minute; browsers revalidate every
 * time (a 304 on the ETag), so a seller sees their own change at once.
 */
const PUBLIC_PAGE_CACHE = "public, max-age=0, s-maxage=60";
/**
 * The landing page changes only with a release, so shared caches may keep it five minutes; browsers
 * revalidate (a 304), because its header changes when the visitor signs in or out.
 */
const LANDING_PAGE_CACHE = "public, max-age=0, s-maxage=300";
/**
 * Search engines may read the marketing and creator pages; a buyer's success, download and library
 * pages (which carry private links) and the seller's own pages are not for them.
 */
const ROBOTS_TXT = `User-agent: *
Allow: /
Disallow: /api/
Disallow: /success
Disallow: /download/
Disallow: /library
Disallow: /files/
Disallow: /dashboard
Disallow: /new
Disallow: /settings
`;
/** The signed-in variant is that visitor's own. */
const SIGNED_IN_LANDING_CACHE = "private, no-cache";
// As src/web/index.html's, which Vite owns.
const LANDING_HEAD = `<title>Flatfee · Sell digital products for $10/mo</title>
    <meta name="description" content="Sell unlimited digital products for a flat $10/month. Connect your own Stripe, upload your files, share one link per product. 0% of sales taken." />`;

/**
 * The public pages, rendered on the server with the web app's components and the public API's
 * functions: the landing page, /product/{id} (its Buy Now and 'Resend my download link' forms post here too),
 * /store/{userId}, and the buyer's /success and /download/{token} (buyer-pages.tsx). They work without
 * JavaScript; see render-document.tsx.
 */
export function registerPublicPages(app: FastifyInstance, deps: PublicPageDeps): void {
  // No data on it: rendered once, for visitors signed out and signed in (whose header differs).
  const landing = (signedIn: boolean) =>
    renderDocument({
      assets: deps.assets,
      path: "/",
      headTags: LANDING_HEAD,
      page: <LandingPage signedIn={signedIn} />,
    });
  const landingSignedOut = landing(false);
  const landingSignedIn = landing(true);
  app.get("/", async (request, reply) => {
    reply.header("vary", "cookie");
    const signedIn = Boolean(request.headers.cookie && (await currentUser(deps.auth, request)));
    return signedIn
      ? sendCacheable(request, reply, landingSignedIn, SIGNED_IN_LANDING_CACHE)
      : sendCacheable(request, reply, landingSignedOut, LANDING_PAGE_CACHE);
  });

  app.get("/robots.txt", async (_request, reply) =>
    reply.type("text/plain; charset=utf-8").header("cache-control", "public, max-age=86400").send(ROBOTS_TXT),
  );

  app.get<ProductRoute>("/product/:productId", async (request, reply) => {
    const { productId } = request.params;
    const html = await renderProductPage(deps, productId);
    if (html === null) return reply.redirect("/", 302);
    return sendCacheable(request, reply, html, PUBLIC_PAGE_CACHE);
  });

  app.get<{ Params: { userId: string } }>("/store/:userId", async (request, reply) => {
    const { userId } = request.params;
    const store = await getStorefront(deps.db, userId, deps.now()).catch(nullWhenNotFound);
    if (!store) {
      const html = renderDocument({
        assets: deps.assets,
        path: request.url,
        headTags: "<title>Store not found · Flatfee</title>",
        page: <StoreNotFoundPage />,
      });
      return reply
        .status(404)
        .header("cache-control", "no-cache")
        .type("text/html; charset=utf-8")
        .send(html);
    }
    const html = renderDocument({
      assets: deps.assets,
      path: request.url,
      headTags: previewTags(storePreview(deps.appUrl, store)),
      page: <StorePage store={store} />,
      bodyData: { "store-view": store.seller.id },
    });
    return sendCacheable(request, reply, html, PUBLIC_PAGE_CACHE);
  });

  registerBuyerPages(app, deps);

  // The forms post urlencoded bodies, which only this scope parses; the cross-site check still applies.
  app.register(async (forms) => {
    forms.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    forms.post<ProductRoute>("/product/:productId/buy", async (request, reply) => {
      const { productId } = request.params;
      try {
        return reply.redirect(await buyNow(deps.checkout, request, reply, productId), 303);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return answerWithPage(deps, reply, productId, error.status, { buyRefused: error.userMessage });
      }
    });

    forms.post<ProductRoute>("/product/:productId/resend-link", async (request, reply) => {
      const { productId } = request.params;
      const { status, answer } = await answerResendForm(deps.resend, request, productId, deps.now());
      return answerWithPage(deps, reply, productId, status, { resend: answer });
    });

    registerBuyerPageForms(forms, deps);

    // The header's Logout on server-rendered pages: Better Auth ends the session and clears its cookies.
    forms.post("/logout", async (request, reply) => {
      const { headers } = await deps.auth.api.signOut({ headers: webHeaders(request), returnHeaders: true });
      const cookies = headers.getSetCookie();
      if (cookies.length > 0) reply.header("set-cookie", cookies);
      return reply.redirect("/", 303);
    });
  });
}

/** The product page's HTML, or null when the product is missing, inactive or no longer public. */
async function renderProductPage(
  deps: PublicPageDeps,
  productId: string,
  answer?: PurchaseAnswer,
): Promise<string | null> {
  const product = await getPublicProduct(deps.db, productId, deps.now()).catch(nullWhenNotFound);
  if (!product) return null;
  return renderDocument({
    assets: deps.assets,
    path: `/product/${product.id}`,
    headTags: previewTags(productPreview(deps.appUrl, product)),
    page: <ProductPage product={product} {...(answer ? { answer } : {})} />,
  });
}

/** A form's answer: the product page again with what happened, never cached. */
async function answerWithPage(
  deps: PublicPageDeps,
  reply: FastifyReply,
  productId: string,
  status: number,
  answer: PurchaseAnswer,
) {
  const html = await renderProductPage(deps, productId, answer);
  if (html === null) return reply.redirect("/", 303);
  return sendUncached(reply, status, html);
}
