import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../../tests/api/support/test-database";
import type { DatabaseHandle } from "../database";
import { down, up } from "./0031_currencies";

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe("0031_currencies", () => {
  it("settles every order made before as it was paid, in US dollars, and gives amount-off codes dollars", async () => {
    const db = database.db;
    await down(db as never);
    await sql`
      set session_replication_role = replica;
      insert into orders (id, stripe_session_id, stripe_account_id, seller_id, product_title, customer_email,
          amount_cents, status, download_window_ends_at, created_at)
        values ('o1', 'cs_1', 'acct_1', 'u1', 'Guide', 'a@example.com', 1999, 'completed', now(), now());
      insert into discount_codes (id, seller_id, code, kind, value, created_at, updated_at)
        values ('c1', 'u1', 'FIVE', 'amount', 500, now(), now()), ('c2', 'u1', 'TEN', 'percent', 10, now(), now());
      set session_replication_role = default;
    `.execute(db);
    await up(db as never);
    const order = await sql<Record<string, unknown>>`
      select amount_cents, currency, settlement_cents, settlement_currency from orders where id = 'o1'`.execute(
      db,
    );
    expect(order.rows).toEqual([
      { amount_cents: 1999, currency: "usd", settlement_cents: 1999, settlement_currency: "usd" },
    ]);
    const codes = await sql<
      Record<string, unknown>
    >`select id, currency from discount_codes order by id`.execute(db);
    expect(codes.rows).toEqual([
      { id: "c1", currency: "usd" },
      { id: "c2", currency: null },
    ]);
    // A percentage has no currency, an amount must have one.
    await expect(
      sql`insert into discount_codes (id, seller_id, code, kind, value, created_at, updated_at)
          values ('c3', 'u1', 'BAD', 'amount', 100, now(), now())`.execute(db),
    ).rejects.toThrow(/discount_codes_currency_check/);
    const store = await sql<Record<string, unknown>>`
      select column_default from information_schema.columns
      where table_name = 'profiles' and column_name = 'store_currency'`.execute(db);
    expect(String(store.rows[0]?.column_default)).toContain("usd");
  });
});
