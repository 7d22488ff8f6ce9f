import type { FastifyInstance, FastifyReply } from "fastify";
import type { VisitSource } from "../../../contracts/analytics";
import type { PurchaseAnswer } from "../../../web/server-rendered";
import { ProductPage } from "../../../web/server-rendered";
import { AppError } from "../../http/errors";
import { hasSource, NO_SOURCE, sourceFieldValues, sourceOfPage } from "../analytics";
import { allowCodeTry, type CodeTry, priceWithCode } from "../discounts";
import { getPublicProduct } from "../products";
import { previewTags, productPreview } from "../storefront";
import { type KeptPages, PUBLIC_PAGE_CACHE, SOURCED_PAGE_CACHE } from "./kept-pages";
import { sendProductNotFound } from "./not-found-page";
import type { RenderedPage } from "./page-cache";
import type { ProductRoute, PublicPageDeps } from "./public-page-deps";
import { renderDocument } from "./render-document";
import { nullWhenNotFound, sendFinishedPage, sendUncached } from "./respond";

/** /product/{id}: kept per product (and per source), or priced for one buyer with their `?code=`. */
export function registerProductPage(
  app: FastifyInstance,
  deps: PublicPageDeps,
  { pages, sourcedOrPlain }: KeptPages,
): void {
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
      if (!page) return sendProductNotFound(deps, reply);
      return sendFinishedPage(request, reply, page, sourced ? SOURCED_PAGE_CACHE : PUBLIC_PAGE_CACHE);
    },
  );
}

/** A `?code=` worth pricing: the first one, if not blank. */
export function codeOf(query: { code?: unknown }): string | undefined {
  const code = Array.isArray(query.code) ? query.code[0] : query.code;
  return typeof code === "string" && code.trim() !== "" ? code.slice(0, 200) : undefined;
}

/**
 * The product page, or null when the product is missing, inactive or no longer public; with `code`,
 * priced with the buyer's discount code (or saying why it does not apply).
 */
export async function renderProductPage(
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

/** A form's answer (or a page priced with a code): the product page with what happened, never cached. */
export async function answerWithPage(
  deps: PublicPageDeps,
  reply: FastifyReply,
  productId: string,
  status: number,
  answer: PurchaseAnswer,
  code?: CodeTry,
  source?: VisitSource,
) {
  const page = await renderProductPage(deps, productId, answer, code, source);
  if (page === null) return sendProductNotFound(deps, reply);
  return sendUncached(reply, status, page.html);
}
