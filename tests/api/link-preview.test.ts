import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProduct, readySeller } from "./support/sellers";
import { APP_URL, createTestApp, type TestApp } from "./support/test-app";

let t: TestApp;
let webDir: string;
beforeAll(async () => {
  webDir = await mkdtemp(path.join(tmpdir(), "flatfee-web-"));
  await writeFile(
    path.join(webDir, "index.html"),
    '<!doctype html><html><head><meta name="description" content="default" /><title>Flatfee</title></head><body><div id="root"></div></body></html>',
  );
  t = await createTestApp({ listen: true, webDistDir: webDir });
});
afterAll(async () => {
  await t.close();
  await rm(webDir, { recursive: true, force: true });
});

const crawl = (url: string) =>
  t.request({
    method: "GET",
    url,
    headers: { "user-agent": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)" },
  });
const meta = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1];

describe("link previews", () => {
  it("answers a product link with Open Graph and Twitter tags, cover image URL included", async () => {
    const seller = await readySeller(t);
    await t.request({
      method: "PUT",
      url: "/api/store-settings",
      cookie: seller.cookie,
      body: { storeName: "Ada's Shop" },
    });
    const product = await createProduct(t, seller.cookie, {
      title: 'The "Complete" <Guide>',
      description: "Everything about it.",
    });
    const response = await crawl(`/product/${product.id}`);
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(meta(html, "og:title")).toBe("The &quot;Complete&quot; &lt;Guide&gt; · $19.99");
    expect(meta(html, "og:description")).toBe("Everything about it.");
    expect(meta(html, "og:image")).toBe(`${APP_URL}${product.coverImageUrl}`);
    expect(meta(html, "og:url")).toBe(`${APP_URL}/product/${product.id}`);
    expect(meta(html, "twitter:card")).toBe("summary_large_image");
    expect(meta(html, "product:price:amount")).toBe("19.99");
    expect(html).not.toContain('content="default"');
    expect(html.match(/<title>/g)).toHaveLength(1);

    const image = await t.request({ method: "GET", url: product.coverImageUrl! });
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toMatch(/^image\//);

    const store = await crawl(`/store/${seller.userId}`);
    expect(meta(store.body, "og:title")).toBe("Ada's Shop");
    expect(meta(store.body, "og:url")).toBe(`${APP_URL}/store/${seller.userId}`);
  });

  it("answers unknown products with a 404 page without a preview, and serves the plain app for other pages", async () => {
    const missing = await crawl("/product/doesnotexist");
    expect(missing.statusCode).toBe(404);
    expect(meta(missing.body, "og:title")).toBeUndefined();
    const terms = (await crawl("/terms")).body;
    expect(meta(terms, "og:title")).toBeUndefined();
    expect(terms).toContain('content="default"');
  });
});
