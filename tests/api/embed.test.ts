import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildEmbedScript } from "../../scripts/embed-script-build.mjs";
import type { SellerAnalytics } from "../../src/contracts/analytics";
import { EMBED_LIMITS, EMBED_MESSAGES } from "../../src/contracts/embed";
import { control } from "./support/emulator-control";
import { createProduct, readySeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

/** A site that embeds the button: its pages ask from there. */
const SITE = "https://creator.example";

let t: TestApp;
let webDir: string;
let script: string;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  // Only the embed script of the web build, built as the web build builds it.
  script = await buildEmbedScript();
  webDir = await mkdtemp(path.join(tmpdir(), "flatfee-embed-web-"));
  await writeFile(path.join(webDir, "embed.js"), script);
  t = await createTestApp({ listen: true, webDistDir: webDir });
  seller = await readySeller(t);
});
afterAll(async () => {
  await t?.close();
  await rm(webDir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.request({ method: "GET", url, headers: { origin: SITE, ...headers } });
const priced = (ids: string) => get(`/api/embed/products?ids=${ids}`);

describe("GET /embed.js", () => {
  it("is the standalone script, small, loadable by any site, revalidated with its ETag", async () => {
    const response = await get("/embed.js");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(response.body).toBe(script);
    // A classic script among the host page's own: one function expression, no module syntax, no globals.
    expect(response.body).toMatch(/^\(function\(\)\{/);
    expect(response.body).not.toMatch(/^import |\bexport\s*\{/m);
    expect(response.body).not.toContain("zod");
    expect(gzipSync(response.body).length).toBeLessThanOrEqual(EMBED_LIMITS.scriptBudgetBytes);
    // Other sites load it: a same-origin resource policy would make browsers drop it.
    expect(response.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    expect(response.headers["cache-control"]).toBe("public, max-age=300, stale-while-revalidate=86400");
    const etag = String(response.headers.etag);
    expect(etag).toMatch(/^"[\w-]{32}"$/);

    const again = await get("/embed.js", { "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");

    const compressed = await get("/embed.js", { "accept-encoding": "br" });
    expect(compressed.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe(script);
  });

  it("says the app is not built when there is no script", async () => {
    const bare = await createTestApp({ sharing: t });
    try {
      const response = await bare.request({ method: "GET", url: "/embed.js" });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ code: "web_app_not_built" });
    } finally {
      await bare.close();
    }
  });
});

describe("GET /api/embed/products", () => {
  it("prices every asked product in one answer, in the order asked, for any site", async () => {
    const fixed = await createProduct(t, seller.cookie, { title: "Fixed <Guide>", price: "19.99" });
    const few = await createProduct(
      t,
      seller.cookie,
      { title: "Few left", price: "5", inventoryType: "limited", quantityAvailable: "3" },
      { cover: false },
    );
    const flexible = await createProduct(
      t,
      seller.cookie,
      { title: "Pay what you want", priceMode: "flexible", price: "4", suggestedPrice: "8" },
      { cover: false },
    );

    const response = await priced(`${flexible.id},${fixed.id},unknown-id,${few.id},${fixed.id}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers["access-control-allow-credentials"]).toBeUndefined();
    expect(response.headers["cache-control"]).toBe("public, max-age=30, s-maxage=30");
    expect(response.json()).toEqual({
      products: [
        {
          id: flexible.id,
          status: "available",
          title: "Pay what you want",
          priceCents: 400,
          priceMode: "flexible",
          currency: "usd",
          priceLabel: "$4.00+",
          stockLabel: null,
          statusLabel: null,
        },
        {
          id: fixed.id,
          status: "available",
          title: "Fixed <Guide>",
          priceCents: 1999,
          priceMode: "fixed",
          currency: "usd",
          priceLabel: "$19.99",
          stockLabel: null,
          statusLabel: null,
        },
        {
          id: "unknown-id",
          status: "missing",
          title: null,
          priceCents: null,
          priceMode: null,
          currency: null,
          priceLabel: null,
          stockLabel: null,
          statusLabel: "No longer available",
        },
        {
          id: few.id,
          status: "available",
          title: "Few left",
          priceCents: 500,
          priceMode: "fixed",
          currency: "usd",
          priceLabel: "$5.00",
          stockLabel: "Only 3 left in stock",
          statusLabel: null,
        },
      ],
      buyLabel: "Buy now",
    });
  });

  it("prices and words the buttons and the overlay for the visitor: a German browser sees the euro price in German", async () => {
    const product = await createProduct(t, seller.cookie, {
      title: "Euro Guide",
      price: "19",
      prices: [{ currency: "eur", price: "18" }],
    });
    const few = await createProduct(
      t,
      seller.cookie,
      { title: "Wenige", price: "5", inventoryType: "limited", quantityAvailable: "2" },
      { cover: false },
    );
    const german = { "accept-language": "de-DE,de;q=0.9" };
    const response = await get(`/api/embed/products?ids=${product.id},${few.id},gone`, german);
    expect(response.statusCode, response.body).toBe(200);
    expect(String(response.headers.vary)).toMatch(/Accept-Language/);
    const body = response.json();
    expect(body.buyLabel).toBe("Jetzt kaufen");
    expect(body.products[0]).toMatchObject({ currency: "eur", priceCents: 1800, priceLabel: "18,00\u00a0€" });
    // No euro price: the store's dollars, written the German way; the stock in German.
    expect(body.products[1]).toMatchObject({
      currency: "usd",
      priceLabel: "5,00\u00a0$",
      stockLabel: "Nur noch 2 auf Lager",
    });
    expect(body.products[2]).toMatchObject({ status: "missing", statusLabel: "Nicht mehr verfügbar" });
    // An English browser in Britain (GBP, which the product has no price in) gets dollars in English.
    const british = (
      await get(`/api/embed/products?ids=${product.id}`, { "accept-language": "en-GB" })
    ).json();
    expect(british.products[0]).toMatchObject({ currency: "usd", priceLabel: "$19.00" });

    // The overlay the button opens: the same euro price, and Buy Now asks Checkout for euros.
    const overlay = await get(`/embed/product/${product.id}`, german);
    expect(overlay.statusCode).toBe(200);
    expect(overlay.body).toContain('lang="de"');
    expect(overlay.body).toMatch(/18,00\s€/);
    expect(overlay.body).toContain('name="currency" value="eur"');
    const english = await get(`/embed/product/${product.id}`);
    expect(english.body).toContain("$19.00");
    expect(english.body).toContain('name="currency" value="usd"');
  });

  it("shows sold-out, deleted, paused and hidden products as unavailable, saying which", async () => {
    const soldOut = await createProduct(
      t,
      seller.cookie,
      { title: "Gone fast", inventoryType: "limited", quantityAvailable: "0" },
      { cover: false },
    );
    const deleted = await createProduct(t, seller.cookie, { title: "Deleted" }, { cover: false });
    const removed = await t.request({
      method: "DELETE",
      url: `/api/products/${deleted.id}`,
      cookie: seller.cookie,
    });
    expect(removed.statusCode).toBe(204);

    // A seller who canceled the plan: pages stay public 30 days, purchases stop at once.
    const canceling = await readySeller(t);
    const paused = await createProduct(t, canceling.cookie, { title: "Paused" }, { cover: false });
    const sub = await t.db
      .selectFrom("subscriptions")
      .select("stripe_subscription_id")
      .where("user_id", "=", canceling.userId)
      .executeTakeFirstOrThrow();
    await t.stripe.subscriptions.cancel(sub.stripe_subscription_id);

    const response = await priced([soldOut.id, deleted.id, paused.id].join(","));
    await eventually(async () => {
      const body = (await priced(paused.id)).json();
      expect(body.products[0].status).toBe("unavailable");
    });
    const [sold, gone] = response.json().products;
    expect(sold).toMatchObject({
      id: soldOut.id,
      status: "soldOut",
      priceLabel: "$19.99",
      stockLabel: "Sold Out",
    });
    expect(gone).toMatchObject({ id: deleted.id, status: "missing", title: null, priceLabel: null });
    expect((await priced(paused.id)).json().products[0]).toMatchObject({
      title: "Paused",
      priceLabel: "$19.99",
      stockLabel: null,
    });

    // 30 days after the cancellation the store is no longer public: the product is not there for buyers.
    t.clock.advance(31 * 24 * 60 * 60 * 1000);
    try {
      expect((await priced(paused.id)).json().products[0]).toMatchObject({ status: "missing", title: null });
    } finally {
      t.clock.reset();
    }
  });

  it("refuses bad ids with a clear message that the asking site can read", async () => {
    const cases: [string, string][] = [
      ["/api/embed/products", EMBED_MESSAGES.idsRequired],
      ["/api/embed/products?ids=", EMBED_MESSAGES.idsRequired],
      ["/api/embed/products?ids=abc,<script>", EMBED_MESSAGES.idsInvalid],
      ["/api/embed/products?ids=abc,,def", EMBED_MESSAGES.idsInvalid],
      [`/api/embed/products?ids=${"x".repeat(65)}`, EMBED_MESSAGES.idsInvalid],
      [
        `/api/embed/products?ids=${Array.from({ length: EMBED_LIMITS.maxIdsPerRequest + 1 }, (_, i) => `p${i}`).join(",")}`,
        EMBED_MESSAGES.tooManyIds,
      ],
    ];
    for (const [url, message] of cases) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ code: "validation_error", message });
      expect(response.headers["access-control-allow-origin"], url).toBe("*");
    }
    const most = Array.from({ length: EMBED_LIMITS.maxIdsPerRequest }, (_, i) => `p${i}`).join(",");
    expect((await priced(most)).json().products).toHaveLength(EMBED_LIMITS.maxIdsPerRequest);
  });
});

describe("framing", () => {
  it("lets any site frame the embed page only; every other page keeps frame-ancestors 'none'", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Framed" }, { cover: false });
    const embed = await get(`/embed/product/${product.id}`);
    expect(embed.statusCode).toBe(200);
    expect(String(embed.headers["content-security-policy"])).toContain("frame-ancestors *");
    expect(String(embed.headers["content-security-policy"])).not.toContain("frame-ancestors 'none'");
    expect(embed.headers["x-frame-options"]).toBeUndefined();
    expect(embed.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    // The rest of the policy is the same as everywhere.
    expect(String(embed.headers["content-security-policy"])).toContain("default-src 'self'");
    expect(String(embed.headers["content-security-policy"])).toMatch(
      /form-action 'self' http:\/\/127\.0\.0\.1:\d+/,
    );

    // A product that is gone is said inside the overlay, so that answer may be framed too.
    const missing = await get("/embed/product/no-such-product");
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain("This product isn&#x27;t available");
    expect(String(missing.headers["content-security-policy"])).toContain("frame-ancestors *");

    for (const url of [
      `/product/${product.id}`,
      `/store/${seller.userId}`,
      "/",
      "/success",
      "/embed.js",
      "/api/embed/products?ids=x",
      "/api/health",
      "/embed/product",
      `/embed/product/${product.id}/buy`,
    ]) {
      const response = await get(url);
      expect(String(response.headers["content-security-policy"]), url).toContain("frame-ancestors 'none'");
      expect(response.headers["x-frame-options"], url).toBe("SAMEORIGIN");
      if (!url.startsWith("/embed.js") && !url.startsWith("/api/embed/")) {
        expect(response.headers["cross-origin-resource-policy"], url).toBe("same-origin");
      }
    }
  });

  it("the embed page is the product's compact page: its Buy Now and every link leave the frame", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Overlay <Guide>", price: "12" });
    const response = await get(`/embed/product/${product.id}`);
    const html = response.body;
    expect(html).toContain('<base target="_top" />');
    expect(html).toContain('<meta name="robots" content="noindex" />');
    expect(html).toContain("<title>Overlay &lt;Guide&gt; · Buy</title>");
    expect(html).toContain("data-embed-frame");
    expect(html).toContain("$12.00");
    expect(html).toContain(`action="/product/${product.id}/buy"`);
    expect(html).toContain(`href="/product/${product.id}"`);
    // No form or link opens inside the frame (where every other page refuses to load).
    expect(html).not.toMatch(/target="(?!_top)/);
    expect(response.headers["cache-control"]).toBe("public, max-age=0, s-maxage=60");
    const etag = String(response.headers.etag);
    expect((await get(`/embed/product/${product.id}`, { "if-none-match": etag })).statusCode).toBe(304);

    // Kept like the product page, and dropped with it when the seller edits the product.
    const edited = await t.request({
      method: "PATCH",
      url: `/api/products/${product.id}`,
      cookie: seller.cookie,
      body: { price: "15" },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const after = await get(`/embed/product/${product.id}`);
    expect(after.body).toContain("$15.00");
    expect(after.body).not.toContain("$12.00");
  });

  it("Buy Now posted from the framed page (same origin, top window) goes to Checkout", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { title: "Bought in the overlay" },
      { cover: false },
    );
    const response = await t.request({
      method: "POST",
      url: `/product/${product.id}/buy`,
      body: "",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        // What Chrome sends for the frame's form with target=_top: the form's page is ours.
        origin: "http://localhost:3000",
        "sec-fetch-site": "same-origin",
        "sec-fetch-dest": "document",
      },
    });
    expect(response.statusCode, response.body).toBe(303);
    const location = String(response.headers.location);
    expect(location.startsWith(`http://${t.emulator.host}:${t.emulator.port}/`)).toBe(true);
    expect((await fetch(location)).status).toBe(200);
  });
});

const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0 Safari/537.36";

const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/**
 * The source fields of the overlay's Buy Now form, as the browser posts them; the form also carries the
 * currency its price was shown in (the store's here), which is checked and left out.
 */
function buyFormFields(html: string): Record<string, string> {
  const form = html.match(/<form[^>]* action="\/product\/[^"]+\/buy"[^>]*>([\s\S]*?)<\/form>/);
  expect(form, "the overlay has a Buy Now form").not.toBeNull();
  const fields: Record<string, string> = {};
  for (const input of form![1]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    fields[input[1]!] = unescapeHtml(input[2]!);
  const { currency, ...source } = fields;
  expect(currency).toBe("usd");
  return source;
}

describe("views and sales through the embed", () => {
  /**
   * What a browser does on a site with the snippet: the frame loads the overlay (its address as embed.ts
   * makes it, the site's page as Referer unless `referer` is null), the overlay's script counts the view
   * with the source the page carries, and Buy Now (in the top window, a same-origin form) is paid.
   */
  async function buyThroughOverlay(
    productId: string,
    options: { query: string; referer: string | null; ip: string },
  ) {
    const overlay = await t.request({
      method: "GET",
      url: `/embed/product/${productId}${options.query}`,
      headers: { "user-agent": BROWSER, ...(options.referer ? { referer: options.referer } : {}) },
      ip: options.ip,
    });
    expect(overlay.statusCode).toBe(200);
    expect(overlay.body).toContain(`data-product-view="${productId}"`);
    const viewSource = unescapeHtml(overlay.body.match(/data-view-source="([^"]*)"/)?.[1] ?? "");
    const view = await t.request({
      method: "POST",
      url: `/api/public/products/${productId}/views`,
      body: Object.fromEntries(new URLSearchParams(viewSource)),
      headers: { "user-agent": BROWSER, "sec-fetch-site": "same-origin" },
      ip: options.ip,
    });
    expect(view.statusCode).toBe(204);
    const fields = buyFormFields(overlay.body);
    const buy = await t.request({
      method: "POST",
      url: `/product/${productId}/buy`,
      body: new URLSearchParams(fields).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
      ip: options.ip,
    });
    expect(buy.statusCode, buy.body).toBe(303);
    const sessionId = new URL(String(buy.headers.location)).pathname.split("/").pop()!;
    await control(t.emulator).payCheckout(sessionId, "4242424242424242", `embed-${options.ip}@example.com`);
    return { overlay, fields };
  }

  const analyticsOf = async (productId: string) => {
    const response = await t.request({
      method: "GET",
      url: `/api/analytics?productId=${productId}`,
      cookie: seller.cookie,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as SellerAnalytics;
  };

  it("counts the overlay's view and files its sale under the embedding site and the link's utm_source", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Sold on my blog", price: "7" });
    const { overlay, fields } = await buyThroughOverlay(product.id, {
      query: "?ref=creator.example&utm_source=spring-post",
      referer: "https://www.creator.example/blog/spring?private=1",
      ip: "172.20.0.1",
    });
    expect(fields).toEqual({ ref: "creator.example", utm_source: "spring-post" });
    // That site's page: never a shared cache's, which keys by address only.
    expect(overlay.headers["cache-control"]).toBe("private, no-cache");
    expect(overlay.body).toContain(
      `href="/product/${product.id}?ref=creator.example&amp;utm_source=spring-post"`,
    );

    await eventually(async () => {
      const stats = await analyticsOf(product.id);
      expect(stats.sources).toEqual([
        {
          referrerHost: "creator.example",
          utmSource: "spring-post",
          utmMedium: null,
          utmCampaign: null,
          productViews: 1,
          units: 1,
          revenueCents: 700,
        },
      ]);
      expect(stats.totals).toMatchObject({ productViews: 1, units: 1, conversionRate: 1 });
    });
  });

  it("names the site from the ref embed.js adds when the site sends no Referer; our own host is no source", async () => {
    const product = await createProduct(t, seller.cookie, { title: "No referrer site" }, { cover: false });
    await buyThroughOverlay(product.id, { query: "?ref=quiet.example", referer: null, ip: "172.20.0.2" });
    await eventually(async () => {
      expect((await analyticsOf(product.id)).sources).toMatchObject([
        { referrerHost: "quiet.example", utmSource: null, productViews: 1, units: 1 },
      ]);
    });

    // The seller's own preview of the button (in the dashboard) opens the overlay from our own host.
    const preview = await get(`/embed/product/${product.id}?ref=localhost`, {
      referer: "http://localhost:3000/dashboard",
    });
    expect(preview.body).not.toContain("data-view-source");
    expect(buyFormFields(preview.body)).toEqual({});
    expect(preview.headers["cache-control"]).toBe("public, max-age=0, s-maxage=60");
  });
});
