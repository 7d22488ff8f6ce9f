/**
 * Buyer pages under load (run by hand: `npx tsx bench/public-pages.ts`, add `--postgres` to use
 * TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres).
 *
 * A store of 24 products with real covers, made through the app's APIs. Through the real app on a real
 * port with the built web app's stylesheet inlined (dist/web, as `npm start` serves it), autocannon in a
 * child process (50 connections, asking for brotli or gzip as browsers do) measures the product page's
 * HTML and the storefront's HTML, each right after a trivial endpoint of the same server (the baseline),
 * in rounds; each result is the median of its ratios to the baseline. The server runs as `npm start`
 * runs it, with NODE_ENV=production. Then it times, in the process, what a page costs when it is not
 * kept (database reads, React's rendering, the ETag hash, brotli and gzip): what a change to a page
 * costs once, since a kept page is sent from memory.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, gzipSync, constants as zlibConstants } from "node:zlib";
import type { ReactElement } from "react";
import { pairedRatios } from "./load";

const PRODUCTS = 24;
const usePostgres = process.argv.includes("--postgres");
if (usePostgres) process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
else delete process.env.TEST_DATABASE_URL;

// As `npm start` runs the server: React's production build (set before React loads).
process.env.NODE_ENV = "production";
const { createElement } = await import("react");
const { ProductPage } = await import("../src/web/features/products/product-page");
const { StorePage } = await import("../src/web/features/storefront/store-page");

const webDistDir = path.resolve("dist/web");
if (!existsSync(path.join(webDistDir, ".vite", "manifest.json"))) {
  throw new Error("No built web app in dist/web: run `npm run build` first.");
}
const { createTestApp } = await import("../tests/api/support/test-app");
const { seedPublicStore } = await import("./public-store");
const { getPublicProduct } = await import("../src/server/features/products/public-product");
const { getStorefront } = await import("../src/server/features/storefront/storefront");
const { renderDocument } = await import("../src/server/features/public-pages/render-document");
const { loadPublicPageAssets } = await import("../src/server/features/public-pages/page-assets");

const t = await createTestApp({
  listen: true,
  webDistDir,
  extraRoutes: (server) => server.get("/bench/trivial", async () => ({ ok: true })),
});
t.app.server.log.level = "silent";
console.log(
  `database: ${usePostgres ? "PostgreSQL" : "PGlite"}; react-dom/server: ${process.env.NODE_ENV === "production" ? "production" : "development"} build; seeding ${PRODUCTS} products with covers...`,
);
const seedStart = Date.now();
const { sellerId, productIds } = await seedPublicStore(t, PRODUCTS);
console.log(`seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);
const productPath = `/product/${productIds[0]}`;
const storePath = `/store/${sellerId}`;

const BROWSER_HEADERS = { "accept-encoding": "br, gzip" };
// Warm up each path so the first measurement does not pay for JIT and query plans.
for (const urlPath of ["/bench/trivial", productPath, storePath]) {
  for (let round = 0; round < 20; round++) await fetch(`${t.url}${urlPath}`, { headers: BROWSER_HEADERS });
}
await pairedRatios(
  t.url!,
  [
    { name: "product page HTML", path: productPath },
    { name: `storefront HTML (${PRODUCTS} products)`, path: storePath },
  ],
  { rounds: 3, seconds: 3, baselinePath: "/bench/trivial", headers: BROWSER_HEADERS },
);

/** Mean µs of `work` over `rounds` runs, after as many to warm up. */
async function microseconds(work: () => unknown, rounds = 200): Promise<number> {
  for (let round = 0; round < rounds; round++) await work();
  const started = performance.now();
  for (let round = 0; round < rounds; round++) await work();
  return Math.round(((performance.now() - started) * 1000) / rounds);
}

// One request's parts, one at a time, as the route runs them.
const assets = await loadPublicPageAssets(webDistDir);
const now = new Date();
const product = await getPublicProduct(t.db, productIds[0] as string, now);
const store = await getStorefront(t.db, sellerId, now);
const pages: Array<[string, string, () => Promise<unknown>, ReactElement]> = [
  [
    "product page",
    productPath,
    () => getPublicProduct(t.db, product.id, now),
    createElement(ProductPage, { product }),
  ],
  ["storefront", storePath, () => getStorefront(t.db, sellerId, now), createElement(StorePage, { store })],
];
console.log(
  "\nWhat a page costs once per change (not kept, or dropped by an event):",
  "\n| page | HTML bytes | database reads µs | render µs | ETag hash µs | brotli 5 µs | gzip 6 µs |\n|---|---|---|---|---|---|---|",
);
for (const [name, urlPath, read, page] of pages) {
  const render = () => renderDocument({ assets, path: urlPath, headTags: "", page });
  const html = render();
  const parts = [
    await microseconds(read),
    await microseconds(render),
    await microseconds(() => createHash("sha256").update(html).digest("base64url")),
    await microseconds(() =>
      brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }),
    ),
    await microseconds(() => gzipSync(html, { level: 6 })),
  ];
  console.log(`| ${name} | ${Buffer.byteLength(html)} | ${parts.join(" | ")} |`);
}
await t.close();
