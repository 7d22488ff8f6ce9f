/**
 * The analytics page under data and load (run by hand: `npx tsx bench/analytics.ts --postgres`, or
 * without `--postgres` on PGlite).
 *
 * One seller with 100,000 orders and 1,000,000 store views (bench/seed-seller-sales.ts, as the dashboard
 * bench), plus 1,000,000 product page views over the last 365 days from 8 sources, every order attributed
 * to one of them, and the analytics roll-ups built from it all in bulk, as the app keeps them. Measures:
 * 1. server time of GET /api/analytics (Fastify's elapsed time, request in to response out) for each
 *    period, one request at a time: median and p95 of 100, and the server process's CPU time per request
 *    (on PostgreSQL that is our code's share, the database's runs elsewhere; it varies far less with the
 *    machine's load than times do);
 * 2. under load (autocannon, 50 connections, in a child process) each period's throughput as a ratio
 *    to a trivial endpoint of the same server measured just before it (bench/load.ts); `--no-load` skips it.
 */
import { sql } from "kysely";
import { median, pairedRatios } from "./load";
import { BENCH_PRODUCT_ID, seedSellerSales } from "./seed-seller-sales";

const ORDERS = 100_000;
const STORE_VIEWS = 1_000_000;
const PRODUCT_VIEWS = 1_000_000;
const SOURCES = [
  ["", "", "", ""],
  ["news.example.com", "newsletter", "email", "spring"],
  ["t.co", "twitter", "social", ""],
  ["youtube.com", "", "", ""],
  ["", "podcast", "audio", "episode-12"],
  ["google.com", "", "", ""],
  ["reddit.com", "reddit", "social", "launch"],
  ["partner.example.org", "partner", "affiliate", "bundle"],
];
const SEQUENTIAL_REQUESTS = 100;

const usePostgres = process.argv.includes("--postgres");
if (usePostgres) process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
else delete process.env.TEST_DATABASE_URL;

const { createTestApp, signUp } = await import("../tests/api/support/test-app");
const serverTimes: number[] = [];
const t = await createTestApp({
  listen: true,
  extraRoutes: (server) => {
    server.get("/bench/trivial", async () => ({ ok: true }));
    // Fastify's own measure of each analytics request: from receiving it to sending the answer.
    server.addHook("onResponse", async (request, reply) => {
      if (request.url.startsWith("/api/analytics")) serverTimes.push(reply.elapsedTime);
    });
  },
});
t.app.server.log.level = "silent";
const seller = await signUp(t);
console.log(
  `database: ${usePostgres ? "PostgreSQL" : "PGlite"}; seeding ${ORDERS} orders, ${STORE_VIEWS} store views and ${PRODUCT_VIEWS} product views...`,
);
const seedStart = Date.now();
await seedSellerSales(t, seller.userId, { orders: ORDERS, storeViews: STORE_VIEWS });
// Inlined as literals: the statements run as one multi-statement script.
const sellerId = sql.lit(seller.userId);
const sources = sql.raw(
  `(values ${SOURCES.map((columns, index) => `(${index}, ${columns.map((value) => `'${value}'`).join(", ")})`).join(", ")}) as s (n, host, source, medium, campaign)`,
);
await sql`
  -- Each completed order's attribution: one of the sources, by its number.
  insert into order_attributions (order_id, seller_id, product_id, day, referrer_host, utm_source, utm_medium, utm_campaign)
  select o.id, o.seller_id, o.product_id, (o.created_at at time zone 'UTC')::date, s.host, s.source, s.medium, s.campaign
  from orders o join ${sources} on s.n = (substr(o.id, 11)::int % ${sql.lit(SOURCES.length)})
  where o.status = 'completed';
  -- Product views: the same share per day and source over the last 365 days.
  insert into analytics_source_days (seller_id, day, product_id, referrer_host, utm_source, utm_medium, utm_campaign, views)
  select ${sellerId}, (now() at time zone 'UTC')::date - d, ${sql.lit(BENCH_PRODUCT_ID)}, s.host, s.source, s.medium, s.campaign,
         ${sql.lit(Math.round(PRODUCT_VIEWS / 365 / SOURCES.length))}
  from generate_series(0, 364) d cross join ${sources};
  -- Sales added to the views' rows, then the per-product roll-up from both.
  insert into analytics_source_days as r (seller_id, day, product_id, referrer_host, utm_source, utm_medium, utm_campaign, units, revenue_cents)
  select a.seller_id, a.day, a.product_id, a.referrer_host, a.utm_source, a.utm_medium, a.utm_campaign, count(*), sum(o.amount_cents)
  from order_attributions a join orders o on o.id = a.order_id
  group by 1, 2, 3, 4, 5, 6, 7
  on conflict (seller_id, day, product_id, referrer_host, utm_source, utm_medium, utm_campaign)
  do update set units = r.units + excluded.units, revenue_cents = r.revenue_cents + excluded.revenue_cents;
  insert into analytics_product_days (seller_id, day, product_id, views, units, revenue_cents)
  select seller_id, day, product_id, sum(views), sum(units), sum(revenue_cents)
  from analytics_source_days group by 1, 2, 3;
  analyze;
`.execute(t.db);
const seeded = await sql<{ views: string; units: string }>`
  select sum(views)::text as views, sum(units)::text as units from analytics_product_days
`.execute(t.db);
console.log(
  `seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)} s: ${seeded.rows[0]?.views} product views, ${seeded.rows[0]?.units} units in the roll-ups`,
);

// Signed in again after seeding and whenever the cookie gets old, like a browser in use (see bench/session.ts).
const { freshSession } = await import("./session");
const session = freshSession(t, seller);
const sessionHeaders = async () => ({ cookie: await session() });
const paths = {
  "7 days": "/api/analytics?period=7d",
  "30 days": "/api/analytics?period=30d",
  "365 days (weekly)": "/api/analytics?period=365d",
  "all time": "/api/analytics?period=all",
  "30 days, one product": `/api/analytics?period=30d&productId=${BENCH_PRODUCT_ID}`,
};

console.log("\nserver time, one request at a time (ms):");
for (const [name, path] of Object.entries(paths)) {
  const first = await fetch(`${t.url}${path}`, { headers: await sessionHeaders() });
  if (first.status !== 200) throw new Error(`${path} answered ${first.status}: ${await first.text()}`);
  serverTimes.length = 0;
  // The fetch client runs in this process too: its share is about that of the trivial route's requests.
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < SEQUENTIAL_REQUESTS; i++)
    await (await fetch(`${t.url}${path}`, { headers: await sessionHeaders() })).text();
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000 / SEQUENTIAL_REQUESTS;
  const sorted = [...serverTimes].sort((a, b) => a - b);
  const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
  console.log(
    `  ${name.padEnd(22)} median ${median(sorted).toFixed(2)}  p95 ${p95.toFixed(2)}  max ${(sorted.at(-1) ?? 0).toFixed(2)}  CPU/request ${cpuMs.toFixed(2)}`,
  );
}
{
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < SEQUENTIAL_REQUESTS; i++) await (await fetch(`${t.url}/bench/trivial`)).text();
  const cpu = process.cpuUsage(cpuBefore);
  console.log(
    `  ${"trivial route".padEnd(22)} CPU/request ${((cpu.user + cpu.system) / 1000 / SEQUENTIAL_REQUESTS).toFixed(2)}`,
  );
}
if (process.argv.includes("--no-load")) {
  await t.close();
  process.exit(0);
}

console.log("\nunder load (50 connections), paired with the trivial endpoint:");
await pairedRatios(
  t.url!,
  Object.entries(paths)
    .filter(([name]) => name !== "7 days")
    .map(([name, path]) => ({ name, path, headers: sessionHeaders })),
  { rounds: 3, seconds: 2, baselinePath: "/bench/trivial" },
);
await t.close();
