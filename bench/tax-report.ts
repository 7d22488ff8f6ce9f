/**
 * The tax report and the tax guide as a store grows (run by hand: `npx tsx bench/tax-report.ts --postgres`,
 * or without `--postgres` on PGlite).
 *
 * Two sellers in one database, one with 1,000 orders and one with 100,000 (bench/seed-seller-sales.ts:
 * one order a minute back from now, so all of the large store's 100,000 fall in the last ~70 days, the
 * report's worst case), each order given a buyer country (DE, FR, US-NY, JP, GB), Stripe Tax's answer
 * and, for one in ten, a reverse charge; then the tax report's roll-up filled from them as migration 0028
 * does (the orders are written in bulk, past OrderChanges). Measures the server time of GET /api/tax/report and
 * GET /api/tax/guide (Fastify's elapsed time; median of 30, one request at a time) for each store, and
 * the ratio of the large store's time to the small one's, measured in the same run.
 */
import { sql } from "kysely";
import { backfillTaxReportDays } from "../src/server/db/migrations/0038_tax_report_settlement";
import { median } from "./load";
import { seedSellerSales } from "./seed-seller-sales";

const SIZES = [1_000, 100_000];
const REQUESTS = 30;

const usePostgres = process.argv.includes("--postgres");
if (usePostgres) process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
else delete process.env.TEST_DATABASE_URL;

const { createTestApp, signUp } = await import("../tests/api/support/test-app");
console.log(`database: ${usePostgres ? "PostgreSQL" : "PGlite"}`);

const results: Record<string, Record<number, number>> = { report: {}, guide: {} };
// Each store in a database of its own (the seeding's ids are fixed), measured one after the other.
for (const size of SIZES) {
  const serverTimes: number[] = [];
  const t = await createTestApp({
    extraRoutes: (server) => {
      server.addHook("onResponse", async (request, reply) => {
        if (request.url.startsWith("/api/tax/")) serverTimes.push(reply.elapsedTime);
      });
    },
  });
  t.app.server.log.level = "silent";
  const seller = await signUp(t);
  await seedSellerSales(t, seller.userId, { orders: size, storeViews: 0 });
  // Stripe Tax's answer on every order: DE, FR, US-NY, JP (not collected), GB; one in ten reverse charged.
  await sql`
    update orders set
      buyer_country = (array['DE','FR','US','JP','GB'])[1 + (substr(id, 11)::int % 5)],
      buyer_state = case when substr(id, 11)::int % 5 = 2 then 'NY' end,
      reverse_charge = substr(id, 11)::int % 10 = 1,
      taxability_reason = case when substr(id, 11)::int % 10 = 1 then 'reverse_charge'
        when substr(id, 11)::int % 5 = 3 then 'not_collecting' else 'standard_rated' end,
      tax_rate = case when substr(id, 11)::int % 5 = 3 or substr(id, 11)::int % 10 = 1 then '0' else '19' end,
      tax_cents = case when substr(id, 11)::int % 5 = 3 or substr(id, 11)::int % 10 = 1 then 0 else 319 end,
      refunded_at = case when status = 'refunded' then created_at + interval '1 day' end
    where seller_id = ${seller.userId}
  `.execute(t.db);
  // The orders were written in bulk, past OrderChanges: their roll-up as migration 0028 builds it.
  await backfillTaxReportDays(t.db);
  await sql`insert into store_tax_settings (seller_id, head_office_country) values (${seller.userId}, 'US')`.execute(
    t.db,
  );
  if (usePostgres) await sql`analyze orders, tax_report_days`.execute(t.db);
  const { rows } = await sql<{ count: number | string }>`
    select count(*) as count from tax_report_days where seller_id = ${seller.userId}`.execute(t.db);
  console.log(`${size.toLocaleString("en-US")} orders: ${rows[0]?.count} roll-up rows`);
  for (const [name, url] of [
    ["report", "/api/tax/report"],
    ["guide", "/api/tax/guide"],
  ] as const) {
    // Warm up (query plans, caches), then one request at a time.
    for (let i = 0; i < 3; i++) await t.request({ method: "GET", url, cookie: seller.cookie });
    serverTimes.length = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const response = await t.request({ method: "GET", url, cookie: seller.cookie });
      if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    }
    results[name]![size] = median(serverTimes);
  }
  await t.close();
}
for (const [name, bySize] of Object.entries(results)) {
  const [small, large] = SIZES.map((size) => bySize[size]!);
  console.log(
    `${name}: ${SIZES.map((size) => `${size.toLocaleString("en-US")} orders ${bySize[size]!.toFixed(1)} ms`).join(", ")}; ratio ${(large! / small!).toFixed(1)}`,
  );
}
