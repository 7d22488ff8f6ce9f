import type { FastifyInstance, FastifyReply } from "fastify";
import type { ReactElement } from "react";
import type { VisitSource } from "../../../contracts/analytics";
import { freeClaimSchema } from "../../../contracts/products";
import type { PurchaseAnswer } from "../../../web/server-rendered";
import {
  Button,
  FreeClaimSentPage,
  LandingPage,
  ProductPage,
  PublicPageShell,
  StoreNotFoundPage,
  StorePage,
} from "../../../web/server-rendered";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import { enforceRateLimit } from "../../http/rate-limit";
import { currentUser, webHeaders } from "../../http/session";
import {
  hasSource,
  NO_SOURCE,
  sourceFieldValues,
  sourceOfFields,
  sourceOfPage,
} from "../analytics/visit-source";
import type { Auth } from "../auth/auth";
import { textField } from "../checkout/purchase-price";
import { buyNow, type CheckoutRouteDeps, claimFree } from "../checkout/routes";
import { allowCodeTry, allowedCodeTry, CODE_TRY_LIMIT_MESSAGE, type CodeTry } from "../discounts/code-tries";
import { priceWithCode } from "../discounts/evaluate-discount-code";
import type { DownloadDeps } from "../downloads/download-link";
import type { resendDownloadLink } from "../downloads/resend-link";
import type { FulfilmentDeps } from "../orders/fulfil-checkout";
import { getPublicProduct } from "../products/public-product";
import {
  landingPreview,
  previewMetaTags,
  previewTags,
  productPreview,
  storePreview,
} from "../storefront/link-preview";
import { getStorefront } from "../storefront/storefront";
import { registerBuyerPageForms, registerBuyerPages } from "./buyer-pages";
import { registerEmbedPage } from "./embed-page";
import type { PublicPageAssets } from "./page-assets";
import { PublicPageCache, type RenderedPage } from "./page-cache";
import { renderDocument } from "./render-document";
import { answerResendForm } from "./resend-form";
import { finishPage, nullWhenNotFound, sendFinishedPage, sendUncached } from "./respond";
import { sitemapXml } from "./sitemap";

export interface PublicPageDeps {
  db: Database;
  auth: Auth;
  appUrl: string;
  assets: PublicPageAssets;
  /** Drops kept pages when a seller's data changes, on any instance. */
  events: EventBus;
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
/** A product or store page reached from elsewhere: the browser revalidates it (a 304), no shared cache keeps it. */
const SOURCED_PAGE_CACHE = "private, no-cache";
/**
 * The landing page changes only with a release, so shared caches may keep it five minutes; browsers
 * revalidate (a 304), because its header changes when the visitor signs in or out.
 */
const LANDING_PAGE_CACHE = "public, max-age=0, s-maxage=300";
/**
 * How long a kept store or product page is served without an event saying it changed: what changes
 * with time alone (a grace period ending, the 30 public days after a cancellation) shows within this.
 */
const PAGE_CACHE_TTL_MS = 10_000;
/** Pages kept per instance: at 15-30 KB each (the brotli and gzip bodies), at most about 60 MB. */
const PAGE_CACHE_MAX_PAGES = 2_000;
/** Pages with a visit's source, kept apart from the plain ones (see sourcedOrPlain). */
const SOURCED_PAGE_CACHE_MAX_PAGES = 500;
/** Renders of a page with a source not kept yet, per network: a campaign's visitors share one render. */
const SOURCED_RENDER_LIMIT = { name: "sourced-page:ip", limit: 30, windowSeconds: 60 };
/**
 * Search engines may read the marketing and creator pages (listed in the sitemap); a buyer's success,
 * download and library pages (which carry private links) and the seller's own pages are not for them.
 */
const robotsTxt = (appUrl: string) => `User-agent: *
Allow: /
Disallow: /api/
Disallow: /success
Disallow: /download/
Disallow: /library
Disallow: /files/
Disallow: /dashboard
Disallow: /new
Disallow: /settings

Sitemap: ${appUrl}/sitemap.xml
`;
/** The signed-in variant is that visitor's own. */
const SIGNED_IN_LANDING_CACHE = "private, no-cache";
// The title and description as src/web/index.html's (which Vite owns), plus the link preview's tags.
const LANDING_HEAD = (appUrl: string) => `<title>Flatfee · Sell digital products for $10/mo</title>
    ${previewMetaTags(landingPreview(appUrl))}`;

/**
 * The public pages, rendered on the server with the web app's components and the public API's
 * functions: the landing page, /product/{id} (its Buy Now and 'Resend my download link' forms post here too),
 * /store/{userId}, and the buyer's /success and /download/{token} (buyer-pages.tsx). They work without
 * JavaScript; see render-document.tsx.
 */
export function registerPublicPages(app: FastifyInstance, deps: PublicPageDeps): void {
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

  const robots = robotsTxt(deps.appUrl);
  app.get("/robots.txt", async (_request, reply) =>
    reply.type("text/plain; charset=utf-8").header("cache-control", "public, max-age=86400").send(robots),
  );

  app.get("/sitemap.xml", async (_request, reply) =>
    reply
      .type("application/xml; charset=utf-8")
      .header("cache-control", "public, max-age=3600")
      .send(await sitemapXml(deps.db, deps.appUrl, deps.now())),
  );

  const pages = new PublicPageCache(deps.events, {
    now: deps.now,
    ttlMs: PAGE_CACHE_TTL_MS,
    maxEntries: PAGE_CACHE_MAX_PAGES,
  });
  // Pages carrying a visit's source (utm fields, a referring host) are keyed by values anyone can make
  // up: kept apart, so made-up ones never push the plain pages out, and rendered for one network at most
  // SOURCED_RENDER_LIMIT times a minute (past that it gets the plain page: only its attribution is lost).
  const sourcedPages = new PublicPageCache(deps.events, {
    now: deps.now,
    ttlMs: PAGE_CACHE_TTL_MS,
    maxEntries: SOURCED_PAGE_CACHE_MAX_PAGES,
  });
  app.addHook("onClose", async () => {
    pages.close();
    sourcedPages.close();
  });
  /** The kept page under `key`, or the plain one under `plainKey` when this network renders too many. */
  const sourcedOrPlain = async (request: { ip: string }, key: string, plainKey: string) => {
    if (sourcedPages.holds(key)) return { cache: sourcedPages, key };
    try {
      await enforceRateLimit(deps.db, SOURCED_RENDER_LIMIT, request.ip, CODE_TRY_LIMIT_MESSAGE, deps.now());
      return { cache: sourcedPages, key };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { cache: pages, key: plainKey };
    }
  };

  app.get<ProductRoute & { Querystring: { code?: string } }>(
    "/product/:productId",
    async (request, reply) => {
      const { productId } = request.params;
      const code = codeOf(request.query);
      const source = sourceOfPage(
        request.query,
        { referer: request.headers.referer, host: request.headers.host },
        deps.appUrl,
      );
      // A page with a code is this buyer's (its price counts the code's uses left): never kept or shared.
      if (code !== undefined) {
        let counted: CodeTry | undefined;
        try {
          counted = await allowCodeTry(deps.db, request, code, deps.now());
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          return answerWithPage(
            deps,
            reply,
            productId,
            error.status,
            { buyRefused: error.userMessage },
            undefined,
            source,
          );
        }
        return answerWithPage(deps, reply, productId, 200, {}, counted, source);
      }
      // A visit from elsewhere gets the page with its source in the Buy Now form: kept per source (the
      // same for every visitor from there), and private, since a shared cache would not key it by Referer.
      const plainKey = `product:${productId}`;
      const kept = hasSource(source)
        ? await sourcedOrPlain(request, `${plainKey}:${JSON.stringify(sourceFieldValues(source))}`, plainKey)
        : { cache: pages, key: plainKey };
      const sourced = kept.key !== plainKey;
      const page = await kept.cache.page(kept.key, () =>
        renderProductPage(deps, productId, undefined, undefined, sourced ? source : undefined),
      );
      if (!page)
        return sendNotFoundPage(deps, reply, request.url, "Product not found", <ProductNotFoundPage />);
      return sendFinishedPage(request, reply, page, sourced ? SOURCED_PAGE_CACHE : PUBLIC_PAGE_CACHE);
    },
  );

  app.get<{ Params: { userId: string } }>("/store/:userId", async (request, reply) => {
    const { userId } = request.params;
    // As a product page: a visit from elsewhere gets its source passed on in the product links.
    const source = sourceOfPage(
      request.query,
      { referer: request.headers.referer, host: request.headers.host },
      deps.appUrl,
    );
    const plainKey = `store:${userId}`;
    const sourceQuery = hasSource(source) ? `?${new URLSearchParams(sourceFieldValues(source))}` : "";
    const kept = sourceQuery
      ? await sourcedOrPlain(request, `${plainKey}${sourceQuery}`, plainKey)
      : { cache: pages, key: plainKey };
    const linkQuery = kept.key === plainKey ? "" : sourceQuery;
    const page = await kept.cache.page(kept.key, () => renderStorePage(deps, userId, linkQuery));
    if (!page) return sendNotFoundPage(deps, reply, request.url, "Store not found", <StoreNotFoundPage />);
    return sendFinishedPage(request, reply, page, linkQuery ? SOURCED_PAGE_CACHE : PUBLIC_PAGE_CACHE);
  });

  registerBuyerPages(app, deps);
  registerEmbedPage(app, deps, { pages, sourcedOrPlain });

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
        // The page comes back with what the buyer typed: the code (or why it no longer applies), the amount.
        const value = textField(request.body, "amount", 32) ?? "";
        const answer: PurchaseAnswer =
          error.details?.field === "amount"
            ? { amount: { value, problem: error.userMessage } }
            : { buyRefused: error.userMessage, amount: { value } };
        // Priced only with a code this request was allowed to try: a refusal by a rate limit says nothing.
        return answerWithPage(
          deps,
          reply,
          productId,
          error.status,
          answer,
          allowedCodeTry(request),
          sourceOfFields(request.body),
        );
      }
    });

    // "Email me the download": the order is made without Stripe and the link goes to the email only.
    forms.post<ProductRoute>("/product/:productId/free", async (request, reply) => {
      const { productId } = request.params;
      const code = textField(request.body, "code");
      const email = textField(request.body, "email", 254) ?? "";
      const parsed = freeClaimSchema.safeParse({ productId, email, ...(code ? { code } : {}) });
      // As Buy Now's: the page is priced only with a code this request was allowed to try. Without it the
      // page may offer no email form (the code made the price $0), so the problem is said above Buy Now.
      const refuse = (status: number, problem: string) => {
        const counted = allowedCodeTry(request);
        const answer: PurchaseAnswer =
          code && !counted ? { buyRefused: problem } : { free: { email, problem } };
        return answerWithPage(deps, reply, productId, status, answer, counted);
      };
      if (!parsed.success) {
        // The email is wrong, not the code: the page keeps the code's price (and this form) if this
        // network may still try a code, counted as any other try.
        await allowCodeTry(deps.db, request, code, deps.now()).catch(unlessRateLimited);
        return refuse(400, parsed.error.issues[0]?.message ?? "Please enter a valid email");
      }
      try {
        await claimFree(deps.checkout, request, reply, parsed.data);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return refuse(error.status, error.userMessage);
      }
      const product = await getPublicProduct(deps.db, productId, deps.now()).catch(nullWhenNotFound);
      if (!product) return sendProductNotFound(deps, reply, productId);
      const html = renderDocument({
        assets: deps.assets,
        path: `/product/${product.id}/free`,
        headTags: `<title>Check your email · Flatfee</title>\n    <meta name="robots" content="noindex" />`,
        page: <FreeClaimSentPage product={product} email={parsed.data.email} />,
      });
      return sendUncached(reply, 200, html);
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

/** A refusal by a rate limit is answered as nothing; any other error is thrown on. */
function unlessRateLimited(error: unknown): undefined {
  if (error instanceof AppError && error.status === 429) return undefined;
  throw error;
}

/** A `?code=` worth pricing: the first one, if not blank. */
function codeOf(query: { code?: unknown }): string | undefined {
  const code = Array.isArray(query.code) ? query.code[0] : query.code;
  return typeof code === "string" && code.trim() !== "" ? code.slice(0, 200) : undefined;
}

/**
 * The product page, or null when the product is missing, inactive or no longer public; with `code`,
 * priced with the buyer's discount code (or saying why it does not apply).
 */
async function renderProductPage(
  deps: PublicPageDeps,
  productId: string,
  answer?: PurchaseAnswer,
  code?: CodeTry,
  source: VisitSource = NO_SOURCE,
): Promise<RenderedPage | null> {
  const product = await getPublicProduct(deps.db, productId, deps.now()).catch(nullWhenNotFound);
  if (!product) return null;
  const quote = code ? await priceWithCode(deps.db, product, code, deps.now()) : undefined;
  const sourceFields = sourceFieldValues(source);
  const html = renderDocument({
    assets: deps.assets,
    path: `/product/${product.id}`,
    headTags: previewTags(productPreview(deps.appUrl, product)),
    page: <ProductPage product={product} quote={quote} answer={answer} source={sourceFields} />,
    // The page's script counts the view, with the same source as the Buy Now form.
    bodyData: {
      "product-view": product.id,
      ...(hasSource(source) ? { "view-source": new URLSearchParams(sourceFields).toString() } : {}),
    },
  });
  return { html, sellerId: product.seller.id };
}

/** The store page, or null when there is no such store or it is no longer public. */
async function renderStorePage(
  deps: PublicPageDeps,
  sellerId: string,
  linkQuery: string,
): Promise<RenderedPage | null> {
  const store = await getStorefront(deps.db, sellerId, deps.now()).catch(nullWhenNotFound);
  if (!store) return null;
  const html = renderDocument({
    assets: deps.assets,
    path: `/store/${store.seller.id}`,
    headTags: previewTags(storePreview(deps.appUrl, store)),
    page: <StorePage store={store} linkQuery={linkQuery} />,
    bodyData: { "store-view": store.seller.id },
  });
  return { html, sellerId: store.seller.id };
}

/**
 * A missing product or store: a real 404 with a way home (not a redirect, which would tell a search
 * engine or a shared link nothing). Not kept by any cache: it may exist a moment later.
 */
function sendNotFoundPage(
  deps: PublicPageDeps,
  reply: FastifyReply,
  path: string,
  title: string,
  page: ReactElement,
) {
  const html = renderDocument({
    assets: deps.assets,
    path,
    headTags: `<title>${title} · Flatfee</title>\n    <meta name="robots" content="noindex" />`,
    page,
  });
  return reply.status(404).header("cache-control", "no-cache").type("text/html; charset=utf-8").send(html);
}

/** As the app's own 404 page (features/errors/not-found-page.tsx), without script. */
function ProductNotFoundPage() {
  return (
    <PublicPageShell>
      <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 py-20 text-center">
        <p className="text-7xl font-bold tracking-tight text-brand-600">404</p>
        <h1 className="mt-4 text-3xl font-bold tracking-tight text-ink">Product not found</h1>
        <p className="mt-3 text-muted">This product does not exist or is no longer available.</p>
        <Button asChild size="lg" className="mt-8">
          <a href="/">Return to Home</a>
        </Button>
      </section>
    </PublicPageShell>
  );
}

function sendProductNotFound(deps: PublicPageDeps, reply: FastifyReply, productId: string) {
  return sendNotFoundPage(deps, reply, `/product/${productId}`, "Product not found", <ProductNotFoundPage />);
}

/** A form's answer (or a page priced with a code): the product page with what happened, never cached. */
async function answerWithPage(
  deps: PublicPageDeps,
  reply: FastifyReply,
  productId: string,
  status: number,
  answer: PurchaseAnswer,
  code?: CodeTry,
  source?: VisitSource,
) {
  const page = await renderProductPage(deps, productId, answer, code, source);
  if (page === null) return sendProductNotFound(deps, reply, productId);
  return sendUncached(reply, status, page.html);
}
