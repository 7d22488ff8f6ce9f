/**
 * Customers and emails to buyers under data (run by hand: `npx tsx bench/customers.ts --postgres`, or
 * without `--postgres` on PGlite; `--orders 10000` for a smaller store, 100,000 by default).
 *
 * The dashboard bench's seller with 100,000 orders (bench/seed-seller-sales.ts), each from a different
 * buyer (the worst case: 100,000 customers, 5% refunded), rolled up by the migration's backfill.
 * Measures the server time (Fastify's elapsed time) of the customers page (first page, a page half the
 * store deep, email searches), the product card's buyer count and an email preview (both count the
 * audience), median and p95 of 50 requests each, and each one's ratio to the trivial route measured just
 * before it (median trivial time / median time: 1 is as fast as doing nothing); then how long one batch
 * of 100 emails takes to queue.
 */
import { sql } from "kysely";
import { backfillCustomers } from "../src/server/db/migrations/0017_audience";
import { encodeCustomerCursor } from "../src/server/features/audience/customers";
import { queueNextBroadcastBatch } from "../src/server/features/audience/queue-broadcasts";
import { createBroadcast } from "../src/server/features/audience/send-broadcast";
import { unsubscribeKey } from "../src/server/features/audience/unsubscribe";
import { buyerLinkKey } from "../src/server/features/orders/buyer-links";
import { BENCH_PRODUCT_ID, seedSellerSales } from "./seed-seller-sales";

const ordersArgument = process.argv.indexOf("--orders");
const ORDERS = ordersArgument > 0 ? Number(process.argv[ordersArgument + 1]) : 100_000;
if (!Number.isSafeInteger(ORDERS) || ORDERS < 100)
  throw new Error("--orders takes a number of orders (at least 100)");
const REQUESTS = 50;

const usePostgres = process.argv.includes("--postgres");
if (usePostgres) process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
else delete process.env.TEST_DATABASE_URL;

const { APP_URL, createTestApp, signUp } = await import("../tests/api/support/test-app");
const serverTimes: number[] = [];
const t = await createTestApp({
  extraRoutes: (server) => {
    server.get("/bench/trivial", async () => ({ ok: true }));
    server.addHook("onResponse", async (_request, reply) => {
      serverTimes.push(reply.elapsedTime);
    });
  },
});
t.app.server.log.level = "silent";
const seller = await signUp(t);
console.log(`database: ${usePostgres ? "PostgreSQL" : "PGlite"}; seeding ${ORDERS} orders...`);
await seedSellerSales(t, seller.userId, { orders: ORDERS, storeViews: 0 });
const backfillStart = Date.now();
await backfillCustomers(t.db as never);
await sql`analyze`.execute(t.db);
console.log(`backfill of ${ORDERS} orders into customers: ${Date.now() - backfillStart} ms`);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
type Request = () => Promise<{ statusCode: number; body: string }>;
async function serverTimesOf(label: string, request: Request): Promise<number[]> {
  serverTimes.length = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const response = await request();
    if (response.statusCode !== 200) throw new Error(`${label}: ${response.statusCode} ${response.body}`);
  }
  return [...serverTimes];
}
// Signed in again whenever the cookie gets old (see bench/session.ts): the measures below take minutes.
const { freshSession } = await import("./session");
const session = freshSession(t, seller);
const get = (url: string) => async () => t.request({ method: "GET", url, cookie: await session() });
/** The request's times, and its ratio to the trivial route measured right before it (the machine's load drifts). */
async function measure(label: string, request: Request) {
  const trivial = percentile(await serverTimesOf("trivial", get("/bench/trivial")), 50);
  const times = await serverTimesOf(label, request);
  const median = percentile(times, 50);
  console.log(
    `${label.padEnd(44)} median ${median.toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms, vs trivial ${(trivial / median).toFixed(3)}`,
  );
}

const middle = await t.db
  .selectFrom("customers")
  .select(["last_purchase_at", "email"])
  .where("seller_id", "=", seller.userId)
  .orderBy("last_purchase_at", "desc")
  .orderBy("email", "desc")
  .offset(Math.floor(ORDERS / 2))
  .limit(1)
  .executeTakeFirstOrThrow();
// The machine's load at the time: a trivial endpoint of the same server, for scale.
await measure("GET /bench/trivial (for scale)", get("/bench/trivial"));
await measure("GET /api/orders (the sales page, for scale)", get("/api/orders?limit=25"));
if (process.argv.includes("--explain")) {
  for (const query of [
    sql`explain analyze select count(*) from customers where seller_id = ${seller.userId}`,
    sql`explain analyze select c.email, c.total_cents, u.email is not null from customers c left join email_unsubscribes u on u.seller_id = c.seller_id and u.email = c.email where c.seller_id = ${seller.userId} order by c.last_purchase_at desc, c.email desc limit 26`,
  ]) {
    const plan = await query.execute(t.db);
    console.log((plan.rows as Array<Record<string, string>>).map((row) => Object.values(row)[0]).join("\n"));
  }
}
await measure("GET /api/customers (first page)", get("/api/customers"));
await measure(
  `GET /api/customers (${Math.floor(ORDERS / 2)} rows deep)`,
  get(`/api/customers?before=${encodeCustomerCursor(middle.last_purchase_at, middle.email)}`),
);
// Every buyer is buyer{n}@example.com: a rare term (1 to 11 matches), one matching no one, one matching
// everyone, and two characters matching no one.
for (const term of ["buyer4242", "nobody", "example.com", "zz"]) {
  await measure(`GET /api/customers?q=${term} (search)`, get(`/api/customers?q=${term}`));
}
await measure(
  "GET /api/products/:id/update-email (count)",
  get(`/api/products/${BENCH_PRODUCT_ID}/update-email`),
);
await measure("POST /api/broadcasts/preview (all buyers)", async () =>
  t.request({
    method: "POST",
    url: "/api/broadcasts/preview",
    cookie: await session(),
    body: { kind: "message", audience: "all", subject: "Hello", message: "News: https://example.com" },
  }),
);

// Queueing: a broadcast to all 95,000 buyers left, a few batches of 100 timed.
const broadcast = await createBroadcast(
  t.db,
  seller.userId,
  { kind: "message", audience: "all", subject: "Bench", message: "Hello" },
  new Date(),
);
const deps = {
  db: t.db,
  outbox: t.outbox,
  appUrl: APP_URL,
  unsubscribeKey: unsubscribeKey("bench"),
  linkKey: buyerLinkKey("bench"),
  now: () => new Date(),
};
const batchTimes: number[] = [];
for (let i = 0; i < 20; i++) {
  const start = performance.now();
  await queueNextBroadcastBatch(deps, broadcast.id);
  batchTimes.push(performance.now() - start);
}
console.log(
  `queue one batch of 100 emails                 median ${percentile(batchTimes, 50).toFixed(1)} ms, p95 ${percentile(batchTimes, 95).toFixed(1)} ms`,
);
await t.close();
