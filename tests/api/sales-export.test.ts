import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signUp, type TestApp } from "./support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/**
 * `count` completed orders of one seller, three to a minute (so orders share a created_at across the
 * export's batches of 1,000), plus one refunded order, which the export leaves out.
 */
async function seedOrders(sellerId: string, count: number) {
  const seller = sql.lit(sellerId);
  await sql`
    insert into checkouts (id, stripe_session_id, seller_id, stripe_account_id, product_id, reservation, state, expires_at)
    select 'hold_csv_' || n, 'cs_csv_' || n, ${seller}, 'acct_csv', null, 'none', 'paid', now()
    from generate_series(0, ${sql.lit(count)}) n;
    insert into orders (id, stripe_session_id, stripe_account_id, seller_id, product_id, product_title, customer_email, amount_cents, settlement_cents, settlement_currency, status, download_window_ends_at, created_at)
    select 'ord_csv_' || n, 'cs_csv_' || n, 'acct_csv', ${seller}, null, 'Guide', 'buyer' || n || '@example.com', 500, 500, 'usd',
           case when n = 0 then 'refunded' else 'completed' end, now() + interval '30 days',
           date_trunc('minute', now()) - ((n / 3) || ' minutes')::interval
    from generate_series(0, ${sql.lit(count)}) n;
  `.execute(t.db);
}

describe("Export CSV of a large store", () => {
  it("writes every completed order exactly once, across batches and ties on the time of sale", async () => {
    const seller = await signUp(t);
    const completed = 2_500;
    await seedOrders(seller.userId, completed);
    const response = await t.request({
      method: "GET",
      url: "/api/orders/export.csv?tz=UTC",
      cookie: seller.cookie,
    });
    expect(response.statusCode).toBe(200);
    const [header, ...lines] = response.body.trimEnd().split("\n");
    expect(header).toBe(
      "Customer Email,Product,Amount,Date,Discount Code,Amount Saved,Period Start,Period End,Tax,Tax Rate,Tax Jurisdiction,Buyer Country,Tax Note,Currency,Settled,Settlement Currency,Dispute",
    );
    const emails = lines.map((line) => line.split(",")[0]);
    expect(emails).toHaveLength(completed);
    expect(new Set(emails).size).toBe(completed);
    expect(emails).not.toContain("buyer0@example.com");
    // Newest first: buyer1 and buyer2 share the newest minute, the oldest minute holds buyer2499, buyer2500.
    expect(emails.slice(0, 2).sort()).toEqual(["buyer1@example.com", "buyer2@example.com"]);
    expect(emails.slice(-2).sort()).toEqual(["buyer2499@example.com", "buyer2500@example.com"]);
  });
});
