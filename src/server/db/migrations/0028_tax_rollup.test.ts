import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../../tests/api/support/test-database";
import type { DatabaseHandle } from "../database";
import { down, up } from "./0028_tax_rollup";

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe("0028_tax_rollup", () => {
  it("fills the roll-up from the orders already made: sales on their UTC day, refunds on theirs", async () => {
    const db = database.db;
    await down(db as never);
    // Only the rows this migration reads; the checkouts orders point to are beside the point.
    await sql`
      set session_replication_role = replica;
      insert into "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
        values ('u1', 'Seller', 'seller@example.com', true, now(), now());
      insert into orders (id, stripe_session_id, stripe_account_id, seller_id, product_title, customer_email,
          amount_cents, tax_cents, tax_rate, taxability_reason, reverse_charge, buyer_country, buyer_state,
          status, refunded_at, download_window_ends_at, created_at, settlement_cents, settlement_currency)
        values
          -- Two German sales on one UTC day (the second just before midnight UTC), one refunded days later.
          ('o1', 'cs_1', 'acct_1', 'u1', 'Guide', 'a@example.com', 1190, 190, '19', 'standard_rated', false,
            'DE', null, 'completed', null, now(), '2026-03-31T00:10:00Z', 1190, 'usd'),
          ('o2', 'cs_2', 'acct_1', 'u1', 'Guide', 'b@example.com', 1190, 190, '19', 'standard_rated', false,
            'DE', null, 'refunded', '2026-04-02T08:00:00Z', now(), '2026-03-31T23:59:59Z', 1190, 'usd'),
          -- A French business (reverse charge), a New York sale, one with no country (before tax).
          ('o3', 'cs_3', 'acct_1', 'u1', 'Guide', 'c@example.com', 1000, 0, '0', 'reverse_charge', true,
            'FR', null, 'completed', null, now(), '2026-04-01T00:00:00Z', 1000, 'usd'),
          ('o4', 'cs_4', 'acct_1', 'u1', 'Guide', 'd@example.com', 1089, 89, '8.875', 'standard_rated', false,
            'US', 'NY', 'completed', null, now(), '2026-04-01T10:00:00Z', 1089, 'usd'),
          ('o5', 'cs_5', 'acct_1', 'u1', 'Guide', 'e@example.com', 500, 0, null, null, false,
            null, 'XX', 'completed', null, now(), '2026-04-01T11:00:00Z', 500, 'usd');
      set session_replication_role = default;
    `.execute(db);

    await up(db as never);

    const rows = await sql<Record<string, unknown>>`
      select day::text as day, country, state, tax_rate, kind, taxed,
        sales_count, sales_net_cents::int as sales_net, sales_tax_cents::int as sales_tax,
        refunded_sales_count, refunded_sales_net_cents::int as refunded_net,
        refunded_sales_tax_cents::int as refunded_tax,
        refunds_count, refunds_net_cents::int as refunds_net, refunds_tax_cents::int as refunds_tax
      from tax_report_days where seller_id = 'u1' order by day, country, state, tax_rate
    `.execute(db);
    const none = { refunded_sales_count: 0, refunded_net: 0, refunded_tax: 0 };
    const noRefunds = { refunds_count: 0, refunds_net: 0, refunds_tax: 0 };
    expect(rows.rows).toEqual([
      {
        day: "2026-03-31",
        country: "DE",
        state: "",
        tax_rate: "19",
        kind: "taxable",
        taxed: true,
        sales_count: 2,
        sales_net: 2000,
        sales_tax: 380,
        refunded_sales_count: 1,
        refunded_net: 1000,
        refunded_tax: 190,
        ...noRefunds,
      },
      // Unknown country, no rate: '' in the keys; a state outside the US is not kept.
      {
        day: "2026-04-01",
        country: "",
        state: "",
        tax_rate: "",
        kind: "other_zero",
        taxed: false,
        sales_count: 1,
        sales_net: 500,
        sales_tax: 0,
        ...none,
        ...noRefunds,
      },
      {
        day: "2026-04-01",
        country: "FR",
        state: "",
        tax_rate: "0",
        kind: "reverse_charge",
        taxed: false,
        sales_count: 1,
        sales_net: 1000,
        sales_tax: 0,
        ...none,
        ...noRefunds,
      },
      {
        day: "2026-04-01",
        country: "US",
        state: "NY",
        tax_rate: "8.875",
        kind: "taxable",
        taxed: true,
        sales_count: 1,
        sales_net: 1000,
        sales_tax: 89,
        ...none,
        ...noRefunds,
      },
      {
        day: "2026-04-02",
        country: "DE",
        state: "",
        tax_rate: "19",
        kind: "taxable",
        taxed: true,
        sales_count: 0,
        sales_net: 0,
        sales_tax: 0,
        ...none,
        refunds_count: 1,
        refunds_net: 1000,
        refunds_tax: 190,
      },
    ]);
  });
});
