import type { FastifyInstance } from "fastify";
import type { VisitSource } from "../../../contracts/analytics";
import { offeredCurrency } from "../../../contracts/currencies";
import type { Locale } from "../../../contracts/i18n/locales";
import { translator } from "../../../contracts/i18n/translator";
import { EmbedProductNotFound, EmbedProductPage } from "../../../web/server-rendered";
import { pageCurrency } from "../../http/buyer-currency";
import { buyerLocale } from "../../http/buyer-locale";
import { escapeAttribute } from "../../http/html";
import { hasSource, NO_SOURCE, sourceFieldValues, sourceOfPage } from "../analytics";
import { getPublicProduct, productInCurrency } from "../products";
import { nullWhenMissingOrUnavailable } from "./not-found-page";
import type { PublicPageCache, RenderedPage } from "./page-cache";
import type { PublicPageDeps } from "./public-page-deps";
import { renderDocument } from "./render-document";
import { sendFinishedPage } from "./respond";

/** As the product page: shared caches may keep it a minute, browsers revalidate (a 304 on the ETag). */
const EMBED_PAGE_CACHE = "public, max-age=0, s-maxage=60";
/** The overlay opened from a site: that site's own (a shared cache would not key it by Referer). */
const SOURCED_EMBED_PAGE_CACHE = "private, no-cache";
/**
 * Inside the frame nothing navigates: Buy Now (then Checkout), the discount code, 'Resend my download
 * link' and every link open in the top window, where our pages' frame-ancestors 'none' does not apply.
 */
const FRAME_HEAD = `<base target="_top" />\n    <meta name="robots" content="noindex" />`;
/** enhance.ts reads it: Escape inside the frame asks the embed script to close the overlay. */
const FRAME_BODY_DATA = { "embed-frame": "" };

type EmbedRoute = { Params: { productId: string } };

/** Where routes.tsx keeps pages: the plain ones, and those made for a visit's source. */
export interface EmbedPageCaches {
  pages: PublicPageCache;
  /** The sourced page's cache and key, or the plain page's when this network renders too many. */
  sourcedOrPlain: (
    request: { ip: string },
    key: string,
    plainKey: string,
  ) => Promise<{ cache: PublicPageCache; key: string }>;
}

/**
 * /embed/product/{id}: the overlay of the embeddable buy button (docs/embed.md), the only page other
 * sites may frame (`frameable`: security-headers.ts). Kept in the public page cache like the product
 * page, under its own key, so the seller's changes drop it too. The embedding site is the visit's
 * source: the frame's Referer is that site, and the embed script adds `ref` (its host, for sites that
 * send no Referer) and the link's utm fields to the address. So the view is counted (the page's script)
 * and the sale attributed (Buy Now's hidden fields) to that site, as on the product page. In the
 * buyer's language (a frame gets no switcher, whose links would leave the embedding site: its browser's
 * language, or the choice remembered on our pages where the browser sends that cookie), kept per language.
 */
export function registerEmbedPage(app: FastifyInstance, deps: PublicPageDeps, caches: EmbedPageCaches): void {
  app.get<EmbedRoute>(
    "/embed/product/:productId",
    { config: { frameable: true } },
    async (request, reply) => {
      const { productId } = request.params;
      const locale = buyerLocale(request, reply);
      // Priced as the product page is for this buyer (no switcher in a frame: what the browser asks for).
      const currency = pageCurrency(request, reply, deps.checkout.buyerCountryHeader);
      const source = sourceOfPage(
        request.query,
        { referer: request.headers.referer, host: request.headers.host },
        deps.appUrl,
      );
      const plainKey = `embed:${productId}:${locale}:${currency ?? ""}`;
      const kept = hasSource(source)
        ? await caches.sourcedOrPlain(
            request,
            `${plainKey}:${JSON.stringify(sourceFieldValues(source))}`,
            plainKey,
          )
        : { cache: caches.pages, key: plainKey };
      const sourced = kept.key !== plainKey;
      const page = await kept.cache.page(kept.key, () =>
        renderEmbedPage(deps, productId, sourced ? source : NO_SOURCE, locale, currency),
      );
      if (page)
        return sendFinishedPage(request, reply, page, sourced ? SOURCED_EMBED_PAGE_CACHE : EMBED_PAGE_CACHE);
      const html = renderDocument({
        assets: deps.assets,
        path: request.url,
        headTags: `<title>${translator(locale).t("notFound.product.title")} · Flatfee</title>\n    ${FRAME_HEAD}`,
        page: <EmbedProductNotFound />,
        bodyData: FRAME_BODY_DATA,
        locale,
      });
      return reply
        .status(404)
        .header("cache-control", "no-cache")
        .type("text/html; charset=utf-8")
        .send(html);
    },
  );
}

async function renderEmbedPage(
  deps: PublicPageDeps,
  productId: string,
  source: VisitSource,
  locale: Locale,
  currency: string | undefined,
): Promise<RenderedPage | null> {
  const stored = await getPublicProduct(deps.db, productId, deps.now()).catch(nullWhenMissingOrUnavailable);
  if (!stored) return null;
  const product = productInCurrency(stored, offeredCurrency(stored, currency));
  const sourceFields = sourceFieldValues(source);
  const html = renderDocument({
    assets: deps.assets,
    path: `/embed/product/${product.id}`,
    headTags: `<title>${escapeAttribute(translator(locale).t("embed.title", { title: product.title }))}</title>\n    ${FRAME_HEAD}`,
    page: <EmbedProductPage product={product} source={sourceFields} />,
    locale,
    // As on the product page: the page's script counts the view with the source Buy Now carries.
    bodyData: {
      ...FRAME_BODY_DATA,
      "product-view": product.id,
      ...(hasSource(source) ? { "view-source": new URLSearchParams(sourceFields).toString() } : {}),
    },
  });
  return { html, sellerId: product.seller.id };
}
