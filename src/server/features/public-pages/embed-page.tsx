import type { FastifyInstance } from "fastify";
import { EmbedProductNotFound, EmbedProductPage } from "../../../web/features/embed/embed-product-page";
import { getPublicProduct } from "../products/public-product";
import { escapeAttribute } from "../storefront/link-preview";
import type { PublicPageCache, RenderedPage } from "./page-cache";
import { renderDocument } from "./render-document";
import { nullWhenNotFound, sendFinishedPage } from "./respond";
import type { PublicPageDeps } from "./routes";

/** As the product page: shared caches may keep it a minute, browsers revalidate (a 304 on the ETag). */
const EMBED_PAGE_CACHE = "public, max-age=0, s-maxage=60";
/**
 * Inside the frame nothing navigates: Buy Now (then Checkout), the discount code, 'Resend my download
 * link' and every link open in the top window, where our pages' frame-ancestors 'none' does not apply.
 */
const FRAME_HEAD = `<base target="_top" />\n    <meta name="robots" content="noindex" />`;
/** enhance.ts reads it: Escape inside the frame asks the embed script to close the overlay. */
const FRAME_BODY_DATA = { "embed-frame": "" };

type EmbedRoute = { Params: { productId: string } };

/**
 * /embed/product/{id}: the overlay of the embeddable buy button (docs/embed.md), the only page other
 * sites may frame (`frameable`: security-headers.ts). Kept in the public page cache like the product
 * page, under its own key, so the seller's changes drop it too.
 */
export function registerEmbedPage(app: FastifyInstance, deps: PublicPageDeps, pages: PublicPageCache): void {
  app.get<EmbedRoute>(
    "/embed/product/:productId",
    { config: { frameable: true } },
    async (request, reply) => {
      const { productId } = request.params;
      const page = await pages.page(`embed:${productId}`, () => renderEmbedPage(deps, productId));
      if (page) return sendFinishedPage(request, reply, page, EMBED_PAGE_CACHE);
      const html = renderDocument({
        assets: deps.assets,
        path: request.url,
        headTags: `<title>Product not found · Flatfee</title>\n    ${FRAME_HEAD}`,
        page: <EmbedProductNotFound />,
        bodyData: FRAME_BODY_DATA,
      });
      return reply
        .status(404)
        .header("cache-control", "no-cache")
        .type("text/html; charset=utf-8")
        .send(html);
    },
  );
}

async function renderEmbedPage(deps: PublicPageDeps, productId: string): Promise<RenderedPage | null> {
  const product = await getPublicProduct(deps.db, productId, deps.now()).catch(nullWhenNotFound);
  if (!product) return null;
  const html = renderDocument({
    assets: deps.assets,
    path: `/embed/product/${product.id}`,
    headTags: `<title>${escapeAttribute(product.title)} · Buy</title>\n    ${FRAME_HEAD}`,
    page: <EmbedProductPage product={product} />,
    bodyData: FRAME_BODY_DATA,
  });
  return { html, sellerId: product.seller.id };
}
