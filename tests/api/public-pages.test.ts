import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORDER_MESSAGES } from "../../src/contracts/orders";
import { APP_PAGE_PATHS } from "../../src/web/route-paths";
import { createProduct, quantityOf as quantityOfProduct, readySeller } from "./support/sellers";
import { APP_URL, createTestApp, signUp, type TestApp } from "./support/test-app";

let t: TestApp;
let webDir: string;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  // A built web app as Vite writes it: the manifest names the hashed stylesheets and script. The public
  // pages inline their own stylesheet, never the app's.
  webDir = await mkdtemp(path.join(tmpdir(), "flatfee-web-"));
  await mkdir(path.join(webDir, ".vite"));
  await mkdir(path.join(webDir, "assets"));
  await writeFile(path.join(webDir, "assets", "app-abc123.css"), ".app-only{color:red}");
  await writeFile(path.join(webDir, "assets", "public-pages-styles-abc123.css"), ".text-ink{color:#0f172a}");
  await writeFile(path.join(webDir, "assets", "public-pages-def456.js"), "console.log(1)");
  await writeFile(
    path.join(webDir, ".vite", "manifest.json"),
    JSON.stringify({
      "index.html": { file: "assets/app-x.js", css: ["assets/app-abc123.css"], isEntry: true },
      "public-pages/enhance.ts": { file: "assets/public-pages-def456.js", isEntry: true },
      "public-pages/public-pages.css": { file: "assets/public-pages-styles-abc123.css", isEntry: true },
    }),
  );
  await writeFile(path.join(webDir, "index.html"), '<!doctype html><div id="root"></div>');
  t = await createTestApp({ listen: true, webDistDir: webDir });
  seller = await readySeller(t);
  await t.request({
    method: "PUT",
    url: "/api/store-settings",
    cookie: seller.cookie,
    body: { storeName: "Ada's Shop", storeTagline: "Paint with light" },
  });
});
afterAll(async () => {
  await t.close();
  await rm(webDir, { recursive: true, force: true });
});

const page = (url: string, headers: Record<string, string> = {}) =>
  t.request({ method: "GET", url, headers });
/** What a browser sends for a form on our own page. */
const postForm = (url: string, fields: Record<string, string> = {}, ip?: string) =>
  t.request({
    method: "POST",
    url,
    body: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
    ...(ip ? { ip } : {}),
  });
const quantityOf = (productId: string) => quantityOfProduct(t, productId);
const holdsOf = (productId: string) =>
  t.db.selectFrom("checkouts").select("id").where("product_id", "=", productId).execute();

describe("server-rendered product page", () => {
  it("has the whole page in the HTML: title, price, description, cover, seller, stock and a Buy Now form", async () => {
    const product = await createProduct(t, seller.cookie, {
      title: "Watercolour <Basics>",
      description: "Thirty lessons.\nFrom first wash.",
      price: "9.99",
      inventoryType: "limited",
      quantityAvailable: "3",
    });
    const response = await page(`/product/${product.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    const html = response.body;
    expect(html).toContain("<h1");
    expect(html).toContain("Watercolour &lt;Basics&gt;</h1>");
    expect(html).toContain("$9.99");
    expect(html).toContain("Thirty lessons.\nFrom first wash.");
    expect(html).toMatch(
      /<img src="[^"]+-640w\.webp" srcSet="[^"]+ 320w, [^"]+ 640w" [^>]*alt="Cover of Watercolour &lt;Basics&gt;"/,
    );
    expect(html).toContain("Ada&#x27;s Shop");
    expect(html).toContain(`href="/store/${seller.userId}"`);
    expect(html).toContain("Only 3 left in stock");
    const buyForm = new RegExp(`<form[^>]*action="/product/${product.id}/buy"[^>]*>`).exec(html)?.[0];
    expect(buyForm).toContain('method="post"');
    expect(html).toMatch(/<button type="submit"[^>]*>Buy Now<\/button>/);
    // The link preview and one title, the inlined stylesheet and the pages' small script.
    expect(html).toContain(`<meta property="og:url" content="${APP_URL}/product/${product.id}" />`);
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain("<style>.text-ink{color:#0f172a}</style>");
    expect(html).not.toContain(".app-only");
    expect(html).toContain('<script type="module" src="/assets/public-pages-def456.js"></script>');
    // Browsers apply form-action to the form's redirect: Checkout's origin must be allowed.
    expect(response.headers["content-security-policy"]).toContain(
      `form-action 'self' http://${t.emulator.host}:${t.emulator.port}`,
    );
  });

  it("answers a missing product with a 404 page and a way home, which no cache keeps", async () => {
    const response = await page("/product/doesnotexist");
    expect(response.statusCode).toBe(404);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("no-cache");
    expect(response.body).toMatch(/<h1[^>]*>Product not found<\/h1>/);
    expect(response.body).toMatch(/<a [^>]*href="\/"[^>]*>Return to Home<\/a>/);
    expect(response.body).toContain('<meta name="robots" content="noindex" />');

    // A product deleted since: the same page, at once.
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    expect((await page(`/product/${product.id}`)).statusCode).toBe(200);
    await t.request({ method: "DELETE", url: `/api/products/${product.id}`, cookie: seller.cookie });
    expect((await page(`/product/${product.id}`)).statusCode).toBe(404);
  });
});

describe("Buy Now as a plain form", () => {
  it("answers 303 to the emulator's Checkout page and takes a unit, like the JSON route", async () => {
    const product = await createProduct(t, seller.cookie, {
      inventoryType: "limited",
      quantityAvailable: "2",
    });
    const response = await postForm(`/product/${product.id}/buy`);
    expect(response.statusCode, response.body).toBe(303);
    const location = String(response.headers.location);
    expect(location.startsWith(`http://${t.emulator.host}:${t.emulator.port}/`)).toBe(true);
    const session = await fetch(location);
    expect(session.status).toBe(200);
    expect(await quantityOf(product.id)).toBe(1);
    expect(await holdsOf(product.id)).toHaveLength(1);
  });

  it("a refusal renders the product page with the message and a 4xx, and takes nothing", async () => {
    const product = await createProduct(t, seller.cookie, {
      inventoryType: "limited",
      quantityAvailable: "1",
    });
    expect((await postForm(`/product/${product.id}/buy`, {}, "203.0.113.7")).statusCode).toBe(303);

    const soldOut = await postForm(`/product/${product.id}/buy`, {}, "198.51.100.9");
    expect(soldOut.statusCode).toBe(409);
    expect(soldOut.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(soldOut.headers["cache-control"]).toBe("no-store");
    expect(soldOut.body).toContain(ORDER_MESSAGES.soldOut);
    expect(soldOut.body).toContain("SOLD OUT");
    expect(await quantityOf(product.id)).toBe(0);
    expect(await holdsOf(product.id)).toHaveLength(1);
  });

  it("is refused from another site, and a type the form does not send is refused unread", async () => {
    const product = await createProduct(t, seller.cookie, {
      inventoryType: "limited",
      quantityAvailable: "1",
    });
    const crossSite = await t.request({
      method: "POST",
      url: `/product/${product.id}/buy`,
      body: "",
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.statusCode).toBe(403);
    const text = await t.request({
      method: "POST",
      url: `/product/${product.id}/buy`,
      body: "hello",
      headers: { "content-type": "text/plain", "sec-fetch-site": "same-origin" },
    });
    expect(text.statusCode).toBe(415);
    expect(await quantityOf(product.id)).toBe(1);
  });
});

describe("'Resend my download link' as a plain form", () => {
  it("answers the page with the panel open and the same message whoever asks", async () => {
    const product = await createProduct(t, seller.cookie);
    const response = await postForm(`/product/${product.id}/resend-link`, { email: "nobody@example.com" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(ORDER_MESSAGES.resendSent);
    expect(response.body).toContain('value="nobody@example.com"');
    expect(response.body).not.toContain("popover=");
  });

  it("a bad email renders the problem with 400 and sends nothing", async () => {
    const product = await createProduct(t, seller.cookie);
    const response = await postForm(`/product/${product.id}/resend-link`, { email: "not-an-email" });
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/role="alert"[^>]*>[^<]+</);
    expect(response.body).not.toContain(ORDER_MESSAGES.resendSent);
  });
});

describe("server-rendered storefront", () => {
  it("has the store's header and product grid, and its script records the view", async () => {
    await createProduct(t, seller.cookie, { title: "Paper Pad", price: "3.00" });
    const product = await createProduct(t, seller.cookie, { title: "Brush Pack", price: "4.00" });
    const response = await page(`/store/${seller.userId}`);
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).toContain("Ada&#x27;s Shop</h1>");
    expect(html).toContain("Paint with light");
    expect(html).toContain("Brush Pack");
    expect(html).toContain("$4.00");
    expect(html).toContain(`href="/product/${product.id}"`);
    expect(html).toContain(`<body data-store-view="${seller.userId}">`);
    // Only the first cover is fetched eagerly and first: covers fetched together slow each other down.
    const covers = html.match(/<img [^>]*>/g) ?? [];
    expect(covers.length).toBeGreaterThan(1);
    expect(covers.filter((img) => /fetchpriority="high"/i.test(img))).toHaveLength(1);
    expect(covers.filter((img) => /loading="lazy"/.test(img))).toHaveLength(covers.length - 1);
    expect(html).toContain('<meta property="og:title" content="Ada&#x27;s Shop" />'.replace("&#x27;", "'"));
  });

  it("an unknown store is today's not-found content with 404", async () => {
    const response = await page("/store/nobody-here");
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain("Store not found");
    expect(response.body).toContain("This store does not exist or is no longer available.");
  });
});

describe("caching", () => {
  it("a short shared lifetime and a strong ETag: 304 when unchanged, a new tag when the product changes", async () => {
    const product = await createProduct(t, seller.cookie, {
      inventoryType: "limited",
      quantityAvailable: "5",
    });
    const first = await page(`/product/${product.id}`);
    expect(first.headers["cache-control"]).toBe("public, max-age=0, s-maxage=60");
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await page(`/product/${product.id}`, { "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");

    // A sale takes a unit: the stock shown changes, so does the tag.
    expect((await postForm(`/product/${product.id}/buy`)).statusCode).toBe(303);
    const afterSale = await page(`/product/${product.id}`, { "if-none-match": etag });
    expect(afterSale.statusCode).toBe(200);
    expect(afterSale.body).toContain("Only 4 left in stock");
    expect(afterSale.headers.etag).not.toBe(etag);

    // The store's settings are on the page too.
    const store = await page(`/store/${seller.userId}`);
    await t.request({
      method: "PUT",
      url: "/api/store-settings",
      cookie: seller.cookie,
      body: { storeName: "Ada's Studio", storeTagline: "Paint with light" },
    });
    const renamed = await page(`/store/${seller.userId}`, { "if-none-match": String(store.headers.etag) });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.body).toContain("Ada&#x27;s Studio");
  });
});

describe("compression", () => {
  it("pages and JSON go out brotli, else gzip; images never", async () => {
    const product = await createProduct(t, seller.cookie);
    const brotli = await page(`/product/${product.id}`, { "accept-encoding": "br, gzip" });
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers.vary).toContain("accept-encoding");
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toContain("Buy Now");

    const gzip = await page(`/store/${seller.userId}`, { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.rawPayload).toString()).toContain("Ada&#x27;s");

    const json = await page(`/api/public/stores/${seller.userId}`, { "accept-encoding": "br" });
    expect(json.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(json.rawPayload).toString()).seller.id).toBe(seller.userId);

    const script = await page("/assets/public-pages-def456.js", { "accept-encoding": "gzip" });
    expect(script.statusCode).toBe(200);
    expect(script.headers["cache-control"]).toBe("public, max-age=31536000, immutable");

    const cover = await page(product.coverImageUrl!, { "accept-encoding": "br, gzip" });
    expect(cover.statusCode).toBe(200);
    expect(cover.headers["content-encoding"]).toBeUndefined();
  });
});

describe("server-rendered landing page", () => {
  it("is the whole page in the HTML, its FAQ one answer at a time without script, cached five minutes with an ETag", async () => {
    const response = await page("/");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("public, max-age=0, s-maxage=300");
    expect(response.headers.vary).toContain("cookie");
    const html = response.body;
    expect(html).toMatch(/<h1[^>]*>Sell unlimited digital products for \$10\/mo<\/h1>/);
    for (const section of ["features", "pricing", "faq"]) expect(html).toContain(`id="${section}"`);
    expect(html).toMatch(/<a [^>]*href="\/auth"[^>]*>Subscribe Now<\/a>/);
    expect(html.match(/<details name="faq"/g)).toHaveLength(7);
    expect(html.match(/<title>/g)).toHaveLength(1);

    const again = await page("/", { "if-none-match": String(response.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it("previews well when shared: Open Graph and Twitter card tags with a 1200x630 image the web app serves", async () => {
    const html = (await page("/")).body;
    const meta = (attribute: string, key: string) =>
      html.match(new RegExp(`<meta ${attribute}="${key}" content="([^"]*)" />`))?.[1];
    const title = "Sell unlimited digital products for $10/mo";
    expect(meta("property", "og:type")).toBe("website");
    expect(meta("property", "og:site_name")).toBe("Flatfee");
    expect(meta("property", "og:title")).toBe(title);
    expect(meta("name", "twitter:title")).toBe(title);
    expect(meta("property", "og:url")).toBe(`${APP_URL}/`);
    expect(meta("property", "og:description")).toMatch(/flat \$10\/month/);
    expect(meta("name", "twitter:description")).toBe(meta("property", "og:description"));
    expect(meta("name", "twitter:card")).toBe("summary_large_image");
    expect(meta("property", "og:image")).toBe(`${APP_URL}/og-image.png`);
    expect(meta("name", "twitter:image")).toBe(`${APP_URL}/og-image.png`);
    expect([meta("property", "og:image:width"), meta("property", "og:image:height")]).toEqual([
      "1200",
      "630",
    ]);
    // One description and one title, as before.
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
    expect(html).toContain("<title>Flatfee · Sell digital products for $10/mo</title>");
    // The image is one of the web app's public files (Vite copies them to the root of the build).
    const image = await sharp("src/web/public/og-image.png").metadata();
    expect([image.format, image.width, image.height]).toEqual(["png", 1200, 630]);
  });

  it("offers a signed-in visitor Dashboard and a Logout form that ends the session without script", async () => {
    const visitor = await signUp(t);
    const signedOut = await page("/");
    const signedIn = await page("/", { cookie: visitor.cookie });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers["cache-control"]).toBe("private, no-cache");
    expect(signedIn.headers.etag).not.toBe(signedOut.headers.etag);
    expect(signedIn.body).toMatch(/<a [^>]*href="\/dashboard"[^>]*>Dashboard<\/a>/);
    expect(signedIn.body).toMatch(/<form [^>]*action="\/logout" method="post"/);
    expect(signedIn.body).not.toContain(">Sign Up<");

    const logout = await t.request({
      method: "POST",
      url: "/logout",
      body: "",
      cookie: visitor.cookie,
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
    });
    expect(logout.statusCode).toBe(303);
    expect(logout.headers.location).toBe("/");
    expect(logout.cookies.find((c) => c.name.endsWith("session_token"))?.value).toBe("");
    // The session is over on the server, not only in this browser.
    const sessions = await t.db
      .selectFrom("session")
      .select("id")
      .where("userId", "=", visitor.userId)
      .execute();
    expect(sessions).toEqual([]);
  });
});

describe("robots.txt", () => {
  it("lets search engines read public pages but not a buyer's private ones or the seller's", async () => {
    const response = await page("/robots.txt");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/plain; charset=utf-8");
    const rules = response.body.split("\n");
    expect(rules).toContain("User-agent: *");
    for (const path of ["/success", "/download/", "/library", "/api/", "/dashboard"]) {
      expect(rules).toContain(`Disallow: ${path}`);
    }
    // Every seller page falls under a Disallow line (they live under /dashboard, /new and /settings).
    const disallowed = rules.filter((rule) => rule.startsWith("Disallow: ")).map((rule) => rule.slice(10));
    for (const pagePath of Object.values(APP_PAGE_PATHS)) {
      const sellerPage = ![
        "auth",
        "terms",
        "privacy",
        "policy/enforcement",
        "status",
        "system-status",
        "library",
      ].includes(pagePath);
      if (sellerPage)
        expect(
          disallowed.some((prefix) => `/${pagePath}`.startsWith(prefix)),
          pagePath,
        ).toBe(true);
    }
    expect(response.body).not.toContain("Disallow: /product");
    expect(response.body).not.toContain("Disallow: /store");
    expect(rules).toContain(`Sitemap: ${APP_URL}/sitemap.xml`);
  });
});

describe("status codes of the web app's pages", () => {
  it("a path no page answers gets the app with 404; the app's own pages get it with 200", async () => {
    for (const url of ["/no-such-page", "/dashboard/extra", "/products/abc", "/store"]) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers["content-type"], url).toBe("text/html; charset=utf-8");
      expect(response.body, url).toContain('<div id="root">');
    }
    for (const url of [
      "/auth",
      "/auth?reset=true&token=x",
      "/dashboard",
      "/dashboard/",
      "/dashboard/products/abc/edit",
      "/dashboard/discounts",
      "/dashboard/webhooks",
      "/dashboard/customers",
      "/dashboard/customers/email",
      "/library",
    ]) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('<div id="root">');
    }
    // A browser revalidating a missing page still gets the page, not an empty answer.
    const missing = await page("/no-such-page", {
      "if-none-match": "*",
      "if-modified-since": new Date().toUTCString(),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('<div id="root">');
    // Not pages: JSON 404s, as before.
    expect((await page("/api/nothing")).json().code).toBe("not_found");
    expect((await page("/assets/missing.js")).json().code).toBe("not_found");
  });
});

describe("seller pages' earlier addresses", () => {
  it("answer a permanent redirect to the page under /dashboard, with the query, so bookmarks keep working", async () => {
    for (const [from, to] of <const>[
      ["/discounts", "/dashboard/discounts"],
      ["/webhooks", "/dashboard/webhooks"],
      ["/customers?search=ada", "/dashboard/customers?search=ada"],
      ["/customers/email", "/dashboard/customers/email"],
      ["/products/abc/edit", "/dashboard/products/abc/edit"],
      ["/Webhooks/", "/dashboard/webhooks"],
    ]) {
      for (const method of ["GET", "HEAD"] as const) {
        const response = await t.app.server.inject({ method, url: from });
        expect(response.statusCode, `${method} ${from}`).toBe(301);
        expect(response.headers.location, `${method} ${from}`).toBe(to);
      }
      expect((await page(to)).statusCode, to).toBe(200);
    }
    // Only what a bookmark does: anything else there is not a page.
    const posted = await t.request({ method: "POST", url: "/webhooks", body: {} });
    expect(posted.statusCode).toBe(404);
    expect((await page("/webhooks/extra")).statusCode).toBe(404);
  });
});

describe("sitemap.xml", () => {
  it("lists the landing page, public stores and their live products with their last change, and nothing else", async () => {
    const live = await createProduct(t, seller.cookie, { title: "Mapped" }, { cover: false });
    const gone = await createProduct(t, seller.cookie, { title: "Unmapped" }, { cover: false });
    await t.request({ method: "DELETE", url: `/api/products/${gone.id}`, cookie: seller.cookie });
    // Signed up, never subscribed: no public store, so not in the sitemap.
    const visitor = await signUp(t);

    const response = await page("/sitemap.xml");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/xml; charset=utf-8");
    const xml = response.body;
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locs[0]).toBe(`${APP_URL}/`);
    expect(locs).toContain(`${APP_URL}/store/${seller.userId}`);
    expect(locs).toContain(`${APP_URL}/product/${live.id}`);
    expect(locs).not.toContain(`${APP_URL}/product/${gone.id}`);
    expect(locs).not.toContain(`${APP_URL}/store/${visitor.userId}`);
    expect(new Set(locs).size).toBe(locs.length);

    const { updated_at: productChanged } = await t.db
      .selectFrom("products")
      .select("updated_at")
      .where("id", "=", live.id)
      .executeTakeFirstOrThrow();
    expect(xml).toContain(
      `<url><loc>${APP_URL}/product/${live.id}</loc><lastmod>${productChanged.toISOString()}</lastmod></url>`,
    );
    const storeEntry = new RegExp(
      `<loc>${APP_URL}/store/${seller.userId}</loc><lastmod>([^<]+)</lastmod>`,
    ).exec(xml);
    expect(new Date(storeEntry![1]!).getTime()).toBeGreaterThanOrEqual(productChanged.getTime());
  });

  it("leaves out a store once its pages stop being public, 30 days after a cancellation", async () => {
    const leaving = await readySeller(t);
    const product = await createProduct(t, leaving.cookie, {}, { cover: false });
    const storeLoc = `<loc>${APP_URL}/store/${leaving.userId}</loc>`;
    expect((await page("/sitemap.xml")).body).toContain(storeLoc);

    await t.db
      .updateTable("subscriptions")
      .set({ status: "canceled", canceled_at: new Date(Date.now() - 31 * 24 * 60 * 60 * 1000) })
      .where("user_id", "=", leaving.userId)
      .execute();
    const xml = (await page("/sitemap.xml")).body;
    expect(xml).not.toContain(storeLoc);
    expect(xml).not.toContain(`/product/${product.id}<`);
  });
});
