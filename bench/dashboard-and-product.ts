/**
 * Dashboard and product page under data and load (run by hand: `npx tsx bench/dashboard-and-product.ts`,
 * add `--postgres` to use TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres).
 *
 * One seller with 100,000 orders and 1,000,000 store views. Through the real app on a real port,
 * autocannon in a child process (50 connections) measures: the dashboard's stats, the first Customer
 * Sales page, the public product API, each right after a trivial endpoint of the same server (the
 * baseline), in rounds; each result is the median of its ratios to the baseline measured just before it.
 */
import { pairedRatios } from "./load";
import { seedSellerSales } from "./seed-seller-sales";

const ORDERS = 100_000;
const STORE_VIEWS = 1_000_000;
const usePostgres = process.argv.includes("--postgres");
if (usePostgres) process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
else delete process.env.TEST_DATABASE_URL;

const { createTestApp, signUp } = await import("../tests/api/support/test-app");
const t = await createTestApp({
  listen: true,
  extraRoutes: (server) => server.get("/bench/trivial", async () => ({ ok: true })),
});
t.app.server.log.level = "silent";
const seller = await signUp(t);
console.log(
  `database: ${usePostgres ? "PostgreSQL" : "PGlite"}; seeding ${ORDERS} orders and ${STORE_VIEWS} store views...`,
);

const seedStart = Date.now();
await seedSellerSales(t, seller.userId, { orders: ORDERS, storeViews: STORE_VIEWS });
console.log(`seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);

// Signed in again after seeding and whenever the cookie gets old, like a browser in use: its session
// cookie carries the cached copy of the session (valid SESSION_CACHE_SECONDS), not a stale one.
const { freshSession } = await import("./session");
const sellerSession = freshSession(t, seller);
const sessionHeaders = async () => ({ cookie: await sellerSession() });

// Warm up each path once so the first measurement does not pay for JIT and plans.
for (const path of [
  "/bench/trivial",
  "/api/dashboard/stats",
  "/api/orders",
  "/api/public/products/benchproduct",
]) {
  await fetch(`${t.url}${path}`, { headers: await sessionHeaders() });
}

await pairedRatios(
  t.url!,
  [
    { name: "dashboard stats", path: "/api/dashboard/stats", headers: sessionHeaders },
    { name: "first Customer Sales page", path: "/api/orders", headers: sessionHeaders },
    { name: "public product API", path: "/api/public/products/benchproduct" },
  ],
  { rounds: 3, seconds: 2, baselinePath: "/bench/trivial" },
);
await t.close();
