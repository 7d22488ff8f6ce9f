/**
 * Buyer pages under load (run by hand: `npx tsx bench/public-pages.ts`, add `--postgres` to use
 * TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres).
 *
 * A store of 24 products with real covers, made through the app's APIs. The real app listens on a port
 * as deployed: NODE_ENV=production, the built web app (dist/web), request logging on at info (JSON lines
 * into a file, as into a pipe). The baseline is nginx (one worker, access log on) on another loopback port
 * serving the same bytes: a saved copy of the page as the app sent it (brotli, as a browser asks for it)
 * with the same headers, and the trivial route's `{"ok":true}`. Load comes from wrk (one thread, 50
 * connections, out of process); each app measurement runs right after nginx's, in rounds, and each result
 * is the median of those paired ratios. Since the machine is shared, it also gives the ratio of CPU time
 * per request (nginx's from /proc, the app's from process.cpuUsage), which other work moves far less.
 * Without wrk it falls back to autocannon in worker threads, and says so. Then it times, in the
 * process, what a page costs when it is not kept (database reads, React's rendering, the ETag hash,
 * brotli and gzip): what a change to a page costs once.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync, constants as zlibConstants } from "node:zlib";
import pino from "pino";
import type { ReactElement } from "react";
import { type LoadResult, load, median } from "./load";
import { type StaticFile, startNginx, WRK, wrk } from "./wrk";

const PRODUCTS = 24;
const ROUNDS = 3;
const SECONDS = 3;
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
const { createLogger } = await import("../src/server/http/logger");
const { seedPublicStore } = await import("./public-store");
const { getPublicProduct } = await import("../src/server/features/products/public-product");
const { getStorefront } = await import("../src/server/features/storefront/storefront");
const { renderDocument } = await import("../src/server/features/public-pages/render-document");
const { loadPublicPageAssets } = await import("../src/server/features/public-pages/page-assets");

// Logs as deployed: the app's logger at info, JSON lines written synchronously (as pino writes stdout).
const logDir = await mkdtemp(path.join(tmpdir(), "flatfee-bench-log-"));
const logFile = path.join(logDir, "app.log");
const t = await createTestApp({
  listen: true,
  webDistDir,
  logger: createLogger("info", pino.destination({ dest: logFile, sync: true })),
  extraRoutes: (server) => server.get("/bench/trivial", async () => ({ ok: true })),
});
const useWrk = existsSync(WRK);
console.log(
  `database: ${usePostgres ? "PostgreSQL" : "PGlite"}; react-dom/server: ${process.env.NODE_ENV === "production" ? "production" : "development"} build; request logging: info, JSON lines to a file`,
);
console.log(
  useWrk
    ? "load: wrk, 1 thread, 50 connections, out of process"
    : `load: autocannon in 2 worker threads, 50 connections (no ${WRK}: the client may be the ceiling)`,
);
console.log(`seeding ${PRODUCTS} products with covers...`);
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

/** The answer's bytes as sent (still compressed) and its headers, for nginx to send the same. */
function sentAnswer(urlPath: string, name: string): Promise<StaticFile & { headerBytes: number }> {
  return new Promise((resolve, reject) => {
    httpRequest(`${t.url}${urlPath}`, { headers: BROWSER_HEADERS }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response
        .on("end", () => {
          const headers: Record<string, string> = {};
          // nginx writes its own date, length, connection, ETag and Last-Modified.
          const own = new Set([
            "date",
            "content-length",
            "connection",
            "keep-alive",
            "etag",
            "transfer-encoding",
          ]);
          for (const [header, value] of Object.entries(response.headers)) {
            if (!own.has(header) && value !== undefined) headers[header] = String(value);
          }
          const headerBytes = response.rawHeaders.reduce((sum, part) => sum + part.length + 2, 0);
          resolve({ name, body: Buffer.concat(chunks), headers, headerBytes });
        })
        .on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}
const copies = [
  { name: "trivial route", path: "/bench/trivial", copy: await sentAnswer("/bench/trivial", "trivial") },
  { name: "product page (kept)", path: productPath, copy: await sentAnswer(productPath, "product") },
  {
    name: `storefront (kept, ${PRODUCTS} products)`,
    path: storePath,
    copy: await sentAnswer(storePath, "store"),
  },
];
const nginx = await startNginx(copies.map(({ copy }) => copy));
// nginx must send what the app sent: same status, same bytes.
for (const { copy } of copies) {
  const response = await fetch(`${nginx.url}/${copy.name}`, { headers: BROWSER_HEADERS });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`nginx answered ${response.status} for ${copy.name}`);
  if (response.headers.get("content-encoding") !== (copy.headers["content-encoding"] ?? null))
    throw new Error(`nginx sent ${copy.name} with another encoding`);
}

const measure = (url: string): Promise<LoadResult> =>
  useWrk
    ? wrk(url, { seconds: SECONDS, headers: BROWSER_HEADERS })
    : load(url, { seconds: SECONDS, headers: BROWSER_HEADERS, workers: 2 });
/** Requests answered and CPU µs spent by one side during one run. */
async function cpuPerRequest(url: string, cpuMicros: () => Promise<number> | number) {
  const before = await cpuMicros();
  const result = await measure(url);
  const spent = (await cpuMicros()) - before;
  return { result, cpuPerRequest: spent / (result.rps * SECONDS) };
}
const appCpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const rows = copies.map((row) => ({
  ...row,
  cpu: [] as number[],
  app: [] as LoadResult[],
  nginx: [] as LoadResult[],
  ratios: [] as number[],
}));
for (let round = 0; round < ROUNDS; round++) {
  for (const row of rows) {
    const baseline = await cpuPerRequest(`${nginx.url}/${row.copy.name}`, nginx.cpuMicros);
    const app = await cpuPerRequest(`${t.url}${row.path}`, appCpuMicros);
    row.nginx.push(baseline.result);
    row.app.push(app.result);
    row.ratios.push(app.result.rps / baseline.result.rps);
    row.cpu.push(baseline.cpuPerRequest / app.cpuPerRequest);
  }
}
await nginx.stop();
const logLines = (await readFile(logFile, "utf8")).split("\n").length - 1;
const summary = (runs: LoadResult[]) =>
  `${median(runs.map((r) => r.rps)).toFixed(0)} | ${median(runs.map((r) => r.p50)).toFixed(2)} | ${median(runs.map((r) => r.p99)).toFixed(2)} | ${runs.reduce((sum, r) => sum + r.errors, 0)}`;
console.log(
  `\n${ROUNDS} rounds of ${SECONDS} s each, the app right after nginx with the same bytes; medians. The app wrote ${logLines} log lines.`,
  "\n| answer | body bytes | header bytes app / nginx (approx.) | nginx req/s | app req/s | app p50 ms | app p99 ms | app errors | app / nginx req/s (median, all rounds) | nginx / app CPU µs per request (median) |\n|---|---|---|---|---|---|---|---|---|---|",
);
for (const row of rows) {
  const ratios = row.ratios.map((ratio) => ratio.toFixed(3)).join(", ");
  const nginxHeaders = Object.entries(row.copy.headers).reduce(
    (sum, [name, value]) => sum + name.length + value.length + 4,
    60,
  );
  console.log(
    `| ${row.name} | ${row.copy.body.length} | ${row.copy.headerBytes} / ~${nginxHeaders} | ${median(row.nginx.map((r) => r.rps)).toFixed(0)} | ${summary(row.app)} | **${median(row.ratios).toFixed(3)}** (${ratios}) | ${median(row.cpu).toFixed(3)} |`,
  );
}
await rm(logDir, { recursive: true, force: true });

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
