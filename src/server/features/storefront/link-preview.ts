import { DEFAULT_LOCALE } from "../../../contracts/i18n/locales";
import { type Translator, translator } from "../../../contracts/i18n/translator";
import { minorToDecimal } from "../../../contracts/money";
import { type PublicProduct, STORE_FALLBACK_NAME, type Storefront } from "../../../contracts/products";
import { escapeAttribute } from "../../http/html";

export interface LinkPreview {
  title: string;
  description: string;
  url: string;
  image: string | null;
  type: "product" | "profile" | "website";
  priceCents?: number;
  currency?: string;
}

const DESCRIPTION_MAX = 200;
const clip = (text: string) =>
  text.length > DESCRIPTION_MAX ? `${text.slice(0, DESCRIPTION_MAX - 1)}…` : text;
const absolute = (appUrl: string, url: string | null) => (url?.startsWith("/") ? `${appUrl}${url}` : url);

const ENGLISH = translator(DEFAULT_LOCALE);
/** A store's name, or the fallback in the page's language. */
const storeNameIn = (i18n: Translator, name: string | null) =>
  name === null || name === STORE_FALLBACK_NAME ? i18n.t("store.fallbackName") : name;

/**
 * What a chat app or social network shows for a shared /product/{id} link. Crawlers do not run
 * JavaScript, so the server writes these tags into the page (features/public-pages), in the page's
 * language (the price as it writes amounts; the creator's title and description as they wrote them).
 */
export function productPreview(appUrl: string, product: PublicProduct, i18n = ENGLISH): LinkPreview {
  const seller = storeNameIn(i18n, product.seller.storeName);
  return {
    title: `${product.title} · ${i18n.money(product.priceCents, product.currency)}`,
    description: clip(product.description || i18n.t("preview.productDescription", { seller })),
    url: `${appUrl}/product/${product.id}`,
    image: absolute(appUrl, product.coverImageUrl),
    type: "product",
    priceCents: product.priceCents,
    currency: product.currency,
  };
}

/** The same for a shared /store/{userId} link. */
export function storePreview(appUrl: string, store: Storefront, i18n = ENGLISH): LinkPreview {
  const name = storeNameIn(i18n, store.seller.storeName);
  return {
    title: name,
    description: clip(
      store.seller.tagline ?? store.seller.description ?? i18n.t("preview.storeDescription", { name }),
    ),
    url: `${appUrl}/store/${store.seller.id}`,
    image: absolute(
      appUrl,
      store.products.find((p) => p.coverImageUrl)?.coverImageUrl ?? store.seller.pictureUrl,
    ),
    type: "profile",
  };
}

/** The landing page's preview image: rendered by scripts/render-og-image.ts into the web app's public files. */
export const LANDING_OG_IMAGE = { path: "/og-image.png", width: 1200, height: 630 } as const;

export const LANDING_DESCRIPTION =
  "Sell unlimited digital products for a flat $10/month. Connect your own Stripe, upload your files, share one link per product. 0% of sales taken.";

/** The same for a shared link to the landing page. */
export function landingPreview(appUrl: string): LinkPreview {
  return {
    title: "Sell unlimited digital products for $10/mo",
    description: LANDING_DESCRIPTION,
    url: `${appUrl}/`,
    image: `${appUrl}${LANDING_OG_IMAGE.path}`,
    type: "website",
  };
}

/** The <head> tags for a preview: Open Graph, Twitter card, and the page title. */
export function previewTags(preview: LinkPreview): string {
  return [`<title>${escapeAttribute(preview.title)} · Flatfee</title>`, previewMetaTags(preview)].join(
    "\n    ",
  );
}

/** Open Graph and Twitter card tags, and the description, without a title. */
export function previewMetaTags(preview: LinkPreview): string {
  const tags: Array<[string, string, string]> = [
    ["property", "og:site_name", "Flatfee"],
    ["property", "og:type", preview.type],
    ["property", "og:title", preview.title],
    ["property", "og:description", preview.description],
    ["property", "og:url", preview.url],
    ["name", "description", preview.description],
    ["name", "twitter:card", preview.image ? "summary_large_image" : "summary"],
    ["name", "twitter:title", preview.title],
    ["name", "twitter:description", preview.description],
  ];
  if (preview.image) {
    tags.push(["property", "og:image", preview.image], ["name", "twitter:image", preview.image]);
    tags.push(["property", "og:image:width", "1200"], ["property", "og:image:height", "630"]);
  }
  if (preview.priceCents !== undefined) {
    tags.push(
      ["property", "product:price:amount", minorToDecimal(preview.priceCents, preview.currency ?? "usd")],
      ["property", "product:price:currency", (preview.currency ?? "usd").toUpperCase()],
    );
  }
  const meta = tags.map(
    ([attr, key, value]) => `<meta ${attr}="${key}" content="${escapeAttribute(value)}" />`,
  );
  return meta.join("\n    ");
}
