import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ORDER_MESSAGES, resendLinkSchema } from "../../../contracts/orders";
import { ProductPage } from "../../../web/features/products/product-page";
import type { PurchaseAnswer } from "../../../web/features/products/purchase-panel";
import { StoreNotFoundPage, StorePage } from "../../../web/features/storefront/store-page";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import { buyNow, type CheckoutRouteDeps } from "../checkout/routes";
import { resendDownloadLink } from "../downloads/resend-link";
import { getPublicProduct } from "../products/public-product";
import { previewTags, productPreview, storePreview } from "../storefront/link-preview";
import { getStorefront } from "../storefront/storefront";
import type { PublicPageAssets } from "./page-assets";
import { renderDocument } from "./render-document";

export interface PublicPageDeps {
  db: Database;
  appUrl: string;
  assets: PublicPageAssets;
  checkout: CheckoutRouteDeps;
  resend: Parameters<typeof resendDownloadLink>[0];
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
 * The public pages, rendered on the server with the web app's components and the public API's
 * functions: /product/{id} (its Buy Now and 'Resend my download link' forms post here too) and
 * /store/{userId}. They work without JavaScript; see render-document.tsx.
 */
export function registerPublicPages(app: FastifyInstance, deps: PublicPageDeps): void {
  app.get<ProductRoute>("/product/:productId", async (request, reply) => {
    const { productId } = request.params;
    const html = await renderProductPage(deps, productId);
    if (html === null) return reply.redirect("/", 302);
    return sendCacheable(request, reply, html);
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
    return sendCacheable(request, reply, html);
  });

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
      const email = String((request.body as Record<string, unknown> | undefined)?.email ?? "");
      const parsed = resendLinkSchema.safeParse({ productId, email });
      if (!parsed.success) {
        const problem = parsed.error.issues[0]?.message ?? "Please enter a valid email";
        return answerWithPage(deps, reply, productId, 400, { resend: { email, problem } });
      }
      try {
        await resendDownloadLink(deps.resend, { ...parsed.data, ip: request.ip }, deps.now());
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return answerWithPage(deps, reply, productId, error.status, {
          resend: { email, problem: error.userMessage },
        });
      }
      return answerWithPage(deps, reply, productId, 200, {
        resend: { email, sent: ORDER_MESSAGES.resendSent },
      });
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
  return reply.status(status).header("cache-control", "no-store").type("text/html; charset=utf-8").send(html);
}

/**
 * A public page with a short shared lifetime and a strong ETag of exactly what it shows (product,
 * stock, store, plan standing, asset names), so any change to those changes the tag.
 */
function sendCacheable(request: FastifyRequest, reply: FastifyReply, html: string) {
  const etag = `"${createHash("sha256").update(html).digest("base64url").slice(0, 32)}"`;
  reply.header("cache-control", PUBLIC_PAGE_CACHE).header("etag", etag);
  if (request.headers["if-none-match"]?.split(/\s*,\s*/).includes(etag)) return reply.status(304).send();
  return reply.type("text/html; charset=utf-8").send(html);
}

function nullWhenNotFound(error: unknown): null {
  if (error instanceof AppError && error.status === 404) return null;
  throw error;
}
