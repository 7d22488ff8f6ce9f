import type { FastifyInstance } from "fastify";
import { offeredCurrency } from "../../../contracts/currencies";
import type { Locale } from "../../../contracts/i18n/locales";
import { translator } from "../../../contracts/i18n/translator";
import { StorePage } from "../../../web/server-rendered";
import { pageCurrency } from "../../http/buyer-currency";
import { buyerLocale } from "../../http/buyer-locale";
import { hasSource, sourceFieldValues, sourceOfPage } from "../analytics";
import { productInCurrency } from "../products";
import { getStorefront, previewTags, storePreview } from "../storefront";
import { type KeptPages, PUBLIC_PAGE_CACHE, SOURCED_PAGE_CACHE } from "./kept-pages";
import { orUnavailablePage, sendNotFoundPage } from "./not-found-page";
import type { RenderedPage } from "./page-cache";
import type { PublicPageDeps } from "./public-page-deps";
import { languageAlternates, renderDocument } from "./render-document";
import { nullWhenNotFound, sendFinishedPage } from "./respond";

/** /store/{userId}: kept per store and language (and per source), in the buyer's language. */
export function registerStorePage(
  app: FastifyInstance,
  deps: PublicPageDeps,
  { pages, sourcedOrPlain }: KeptPages,
): void {
  app.get<{ Params: { userId: string } }>("/store/:userId", async (request, reply) => {
    const { userId } = request.params;
    const locale = buyerLocale(request, reply);
    const currency = pageCurrency(request, reply, deps.checkout.buyerCountryHeader);
    // As a product page: a visit from elsewhere gets its source passed on in the product links.
    const source = sourceOfPage(
      request.query,
      { referer: request.headers.referer, host: request.headers.host },
      deps.appUrl,
    );
    const plainKey = `store:${userId}:${locale}:${currency ?? ""}`;
    const sourceQuery = hasSource(source) ? `?${new URLSearchParams(sourceFieldValues(source))}` : "";
    const kept = sourceQuery
      ? await sourcedOrPlain(request, `${plainKey}${sourceQuery}`, plainKey)
      : { cache: pages, key: plainKey };
    const linkQuery = kept.key === plainKey ? "" : sourceQuery;
    return orUnavailablePage(deps, reply, async () => {
      const page = await kept.cache.page(kept.key, () =>
        renderStorePage(deps, userId, linkQuery, locale, currency),
      );
      if (!page) return sendNotFoundPage(deps, reply, "store");
      return sendFinishedPage(request, reply, page, linkQuery ? SOURCED_PAGE_CACHE : PUBLIC_PAGE_CACHE);
    });
  });
}

/** The store page in `locale`, or null when there is no such store or it is no longer public. */
export async function renderStorePage(
  deps: PublicPageDeps,
  sellerId: string,
  linkQuery: string,
  locale: Locale,
  currency?: string,
): Promise<RenderedPage | null> {
  const stored = await getStorefront(deps.db, sellerId, deps.now()).catch(nullWhenNotFound);
  if (!stored) return null;
  // Each card in the buyer's currency where the product has a price in it (docs/money.md).
  const store = {
    ...stored,
    products: stored.products.map((product) =>
      productInCurrency(product, offeredCurrency(product, currency)),
    ),
  };
  const path = `/store/${store.seller.id}`;
  const html = renderDocument({
    assets: deps.assets,
    // A visit's source stays with it when the buyer switches language.
    path: `${path}${linkQuery}`,
    headTags: [
      previewTags(storePreview(deps.appUrl, store, translator(locale))),
      languageAlternates(deps.appUrl, path),
    ].join("\n    "),
    page: <StorePage store={store} linkQuery={linkQuery} />,
    locale,
    bodyData: { "store-view": store.seller.id },
  });
  return { html, sellerId: store.seller.id };
}
