/**
 * Dashboard and product page under data and load (run by hand: `npx tsx bench/dashboard-and-product.ts`,
 * add `--postgres` to use TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres).
 *
 * One seller with 100,000 orders and 1,000,000 store views. Through the real app on a real port,
 * autocannon in a child process (50 connections) measures: the dashboard's stats, the first Customer
 * Sales page, the public product API, each right after a trivial endpoint of the same server (the
 * baseline), in rounds; each result is the median of its ratios to the baseline measured just before it.
 */
import { sql } from "kysely";
import { pairedRatios } from "./load";

const ORDERS = 100_000;
const STORE_VIEWS = 1_000_000;
const usePostgres = process.argv.includes("--postgres");
if (usePostgres) process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
else delete process.env.TEST_DATABASE_URL;

const { cookiesOf, createTestApp, signUp } = await import("../tests/api/support/test-app");
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
// Inlined as a literal: the seeding statements run as one multi-statement script.
const sellerId = sql.lit(seller.userId);
await sql`
  insert into uploads (id, seller_id, purpose, status, original_name, declared_size_bytes, declared_type, upload_key, bucket, storage_key, size_bytes, content_type, expires_at)
  values ('bench-file', ${sellerId}, 'product-file', 'attached', 'bench.pdf', 1000, 'application/pdf', 'bench/file.pdf', 'product-files', 'bench/file.pdf', 1000, 'application/pdf', now());
  insert into products (id, user_id, title, description, price_cents, file_upload_id, file_name, inventory_type)
  values ('benchproduct', ${sellerId}, 'Bench Guide', 'For measuring.', 1999, 'bench-file', 'bench.pdf', 'unlimited');
  update profiles set store_name = 'Bench Shop', stripe_connect_onboarding_complete = true, stripe_connect_account_id = 'acct_bench' where id = ${sellerId};
  insert into subscriptions (user_id, stripe_subscription_id, stripe_customer_id, status) values (${sellerId}, 'sub_bench', 'cus_bench', 'active');
`.execute(t.db);
await sql`
  insert into checkouts (id, stripe_session_id, seller_id, stripe_account_id, product_id, reservation, state, expires_at)
  select 'hold_bench_' || n, 'cs_bench_' || n, ${sellerId}, 'acct_bench', 'benchproduct', 'none', 'paid', now()
  from generate_series(1, ${ORDERS}) n;
`.execute(t.db);
await sql`
  insert into orders (id, stripe_session_id, stripe_account_id, payment_intent_id, seller_id, product_id, product_title, customer_email, amount_cents, status, download_window_ends_at, created_at)
  select 'ord_bench_' || n, 'cs_bench_' || n, 'acct_bench', 'pi_bench_' || n, ${sellerId}, 'benchproduct', 'Bench Guide',
         'buyer' || n || '@example.com', 1999, case when n % 20 = 0 then 'refunded' else 'completed' end,
         now() + interval '30 days', now() - (n || ' minutes')::interval
  from generate_series(1, ${ORDERS}) n;
`.execute(t.db);
await sql`
  insert into store_views (store_owner_id, viewed_at, user_agent, visitor_hash)
  select ${sellerId}, now() - ((n % 90) || ' days')::interval, 'bench', 'v' || n from generate_series(1, ${STORE_VIEWS}) n;
`.execute(t.db);
// The roll-ups the app keeps with every view and order, built here in bulk.
await sql`
  insert into store_view_days (store_owner_id, day, views)
  select store_owner_id, (viewed_at at time zone 'UTC')::date, count(*) from store_views group by 1, 2;
  insert into seller_sales_totals (seller_id, orders_count, units_sold, revenue_cents)
  select seller_id, count(*), count(*) filter (where status = 'completed'),
         coalesce(sum(amount_cents) filter (where status = 'completed'), 0)
  from orders group by seller_id;
  analyze;
`.execute(t.db);
console.log(`seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);

// Signed in again after seeding, like a browser in use: its session cookie carries the cached copy of
// the session (valid SESSION_CACHE_SECONDS, renewed by the server's answers), not a stale one.
const signIn = await t.request({
  method: "POST",
  url: "/api/auth/sign-in/email",
  body: { email: seller.email, password: seller.password },
});
const sellerCookie = cookiesOf(signIn);

// Warm up each path once so the first measurement does not pay for JIT and plans.
for (const path of [
  "/bench/trivial",
  "/api/dashboard/stats",
  "/api/orders",
  "/api/public/products/benchproduct",
]) {
  await fetch(`${t.url}${path}`, { headers: { cookie: sellerCookie } });
}

await pairedRatios(
  t.url!,
  [
    { name: "dashboard stats", path: "/api/dashboard/stats", headers: { cookie: sellerCookie } },
    { name: "first Customer Sales page", path: "/api/orders", headers: { cookie: sellerCookie } },
    { name: "public product API", path: "/api/public/products/benchproduct" },
  ],
  { rounds: 3, seconds: 2, baselinePath: "/bench/trivial" },
);
await t.close();
