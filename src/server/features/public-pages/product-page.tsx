import type { FastifyInstance, FastifyReply } from "fastify";
import type { VisitSource } from "../../../contracts/analytics";
import { offeredCurrency } from "../../../contracts/currencies";
import type { Locale } from "../../../contracts/i18n/locales";
import { translator } from "../../../contracts/i18n/translator";
import type { PurchaseAnswer } from "../../../web/server-rendered";
import { ProductPage } from "../../../web/server-rendered";
import { pageCurrency } from "../../http/buyer-currency";
import { buyerLocale } from "../../http/buyer-locale";
import { AppError } from "../../http/errors";
import { hasSource, NO_SOURCE, sourceFieldValues, sourceOfPage } from "../analytics";
import { allowCodeTry, type CodeTry, priceWithCode } from "../discounts";
import { getPublicProduct, productInCurrency } from "../products";
import { previewTags, productPreview } from "../storefront";
import { type KeptPages, PUBLIC_PAGE_CACHE, SOURCED_PAGE_CACHE } from "./kept-pages";
import { orUnavailablePage, sendProductNotFound } from "./not-found-page";
import type { RenderedPage } from "./page-cache";
import type { ProductRoute, PublicPageDeps } from "./public-page-deps";
import { languageAlternates, renderDocument } from "./render-document";
import { nullWhenNotFound, sendFinishedPage, sendUncached } from "./respond";

/**
 * /product/{id}: kept per product and language (and per source), or priced for one buyer with their
 * `?code=`. In the buyer's language (http/buyer-locale.ts), which the answer varies by.
 */
export function registerProductPage(
  app: FastifyInstance,
  deps: PublicPageDeps,
  { pages, sourcedOrPlain }: KeptPages,
): void {
  app.get<ProductRoute & { Querystring: { code?: string } }>(
    "/product/:productId",
    async (request, reply) => {
      const { productId } = request.params;
      const locale = buyerLocale(request, reply);
      const currency = pageCurrency(request, reply, deps.checkout.buyerCountryHeader);
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
      // Each language is a page of its own; a product's change drops them all (they are its seller's).
      const plainKey = `product:${productId}:${locale}:${currency ?? ""}`;
      const kept = hasSource(source)
        ? await sourcedOrPlain(request, `${plainKey}:${JSON.stringify(sourceFieldValues(source))}`, plainKey)
        : { cache: pages, key: plainKey };
      const sourced = kept.key !== plainKey;
      return orUnavailablePage(deps, reply, async () => {
        const page = await kept.cache.page(kept.key, () =>
          renderProductPage(deps, productId, { locale, currency, source: sourced ? source : undefined }),
        );
        if (!page) return sendProductNotFound(deps, reply);
        return sendFinishedPage(request, reply, page, sourced ? SOURCED_PAGE_CACHE : PUBLIC_PAGE_CACHE);
      });
    },
  );
}

/** A `?code=` worth pricing: the first one, if not blank. */
export function codeOf(query: { code?: unknown }): string | undefined {
  const code = Array.isArray(query.code) ? query.code[0] : query.code;
  return typeof code === "string" && code.trim() !== "" ? code.slice(0, 200) : undefined;
}

/**
 * The product page in `locale`, or null when the product is missing, inactive or no longer public; with
 * `code`, priced with the buyer's discount code (or saying why it does not apply). `path` is its address
 * as the language switcher keeps it (a `?code=` page's query), the plain one by default.
 */
export async function renderProductPage(
  deps: PublicPageDeps,
  productId: string,
  options: {
    locale: Locale;
    /** The currency the buyer asks for (http/buyer-currency.ts): shown when the product has a price in it. */
    currency?: string | undefined;
    answer?: PurchaseAnswer | undefined;
    code?: CodeTry | undefined;
    source?: VisitSource | undefined;
    path?: string | undefined;
  },
): Promise<RenderedPage | null> {
  const { locale, answer, code, source = NO_SOURCE } = options;
  const stored = await getPublicProduct(deps.db, productId, deps.now()).catch(nullWhenNotFound);
  if (!stored) return null;
  const product = productInCurrency(stored, offeredCurrency(stored, options.currency));
  const quote = code ? await priceWithCode(deps.db, product, code, deps.now()) : undefined;
  const sourceFields = sourceFieldValues(source);
  const plainPath = `/product/${product.id}`;
  const html = renderDocument({
    assets: deps.assets,
    // A visit's source stays with it when the buyer switches language.
    path:
      options.path ?? (hasSource(source) ? `${plainPath}?${new URLSearchParams(sourceFields)}` : plainPath),
    headTags: [
      previewTags(productPreview(deps.appUrl, product, translator(locale))),
      languageAlternates(deps.appUrl, plainPath),
    ].join("\n    "),
    page: <ProductPage product={product} quote={quote} answer={answer} source={sourceFields} />,
    locale,
    // The page's script counts the view, with the same source as the Buy Now form.
    bodyData: {
      "product-view": product.id,
      ...(hasSource(source) ? { "view-source": new URLSearchParams(sourceFields).toString() } : {}),
    },
  });
  return { html, sellerId: product.seller.id };
}

/**
 * A form's answer (or a page priced with a code): the product page with what happened, in the buyer's
 * language, never cached. A GET priced with a code keeps its query for the language switcher; a form
 * post's page switches language on the plain product page, since a GET does not serve the form's address.
 */
export async function answerWithPage(
  deps: PublicPageDeps,
  reply: FastifyReply,
  productId: string,
  status: number,
  answer: PurchaseAnswer,
  code?: CodeTry,
  source?: VisitSource,
) {
  const { request } = reply;
  const locale = buyerLocale(request, reply);
  const currency = pageCurrency(request, reply, deps.checkout.buyerCountryHeader);
  // Only a code this request was allowed to try: a page refused by the limit says nothing of the code.
  const path = request.method === "GET" && code ? request.url : undefined;
  return orUnavailablePage(deps, reply, async () => {
    const page = await renderProductPage(deps, productId, { locale, currency, answer, code, source, path });
    if (page === null) return sendProductNotFound(deps, reply);
    return sendUncached(reply, status, page.html);
  });
}
