import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../../tests/api/support/test-database";
import type { DatabaseHandle } from "../database";
import { down, up } from "./0030_buyer_locale";

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const localesOf = async (db: DatabaseHandle["db"]) =>
  (
    await sql<{ source: string; buyer_locale: string }>`
      select 'checkout' as source, buyer_locale from checkouts where id = 'hold_1'
      union all select 'order', buyer_locale from orders where id = 'o1'
      union all select 'membership', buyer_locale from memberships where id = 'mem_1'
    `.execute(db)
  ).rows;

describe("0030_buyer_locale", () => {
  it("gives the checkouts, orders and memberships made before English, and takes only our languages", async () => {
    const db = database.db;
    await down(db as never);
    // A checkout, its order and a membership as they were stored before (their sellers are beside the point).
    await sql`
      set session_replication_role = replica;
      insert into checkouts (id, stripe_session_id, stripe_account_id, seller_id, reservation, expires_at, created_at)
        values ('hold_1', 'cs_1', 'acct_1', 'u1', 'none', now(), now());
      insert into orders (id, stripe_session_id, stripe_account_id, seller_id, product_title, customer_email,
          amount_cents, settlement_cents, settlement_currency, status, download_window_ends_at, created_at)
        values ('o1', 'cs_1', 'acct_1', 'u1', 'Guide', 'a@example.com', 1999, 1999, 'usd', 'completed', now(), now());
      insert into memberships (id, seller_id, product_title, tier_name, stripe_account_id, stripe_subscription_id,
          stripe_customer_id, customer_email, billing_interval, amount_cents, status, current_period_start,
          current_period_end, started_at, synced_at, created_at)
        values ('mem_1', 'u1', 'Club', 'Fan', 'acct_1', 'sub_1', 'cus_1', 'a@example.com', 'month', 500, 'active',
          now(), now(), now(), now(), now());
      set session_replication_role = default;
    `.execute(db);

    await up(db as never);

    expect(await localesOf(db)).toEqual([
      { source: "checkout", buyer_locale: "en" },
      { source: "order", buyer_locale: "en" },
      { source: "membership", buyer_locale: "en" },
    ]);
    await db.updateTable("orders").set({ buyer_locale: "pt-BR" }).where("id", "=", "o1").execute();
    await db.updateTable("memberships").set({ buyer_locale: "ja" }).where("id", "=", "mem_1").execute();
    for (const table of ["checkouts", "orders", "memberships"] as const) {
      // A language we don't speak (or a tag in another case) is refused by the database too.
      await expect(sql`update ${sql.table(table)} set buyer_locale = 'it'`.execute(db)).rejects.toThrow(
        /buyer_locale_check/,
      );
      await expect(sql`update ${sql.table(table)} set buyer_locale = 'pt-br'`.execute(db)).rejects.toThrow();
    }
    expect((await localesOf(db)).map((row) => row.buyer_locale)).toEqual(["en", "pt-BR", "ja"]);

    await down(db as never);
    const left = await sql<{ table_name: string }>`
      select table_name from information_schema.columns
      where column_name = 'buyer_locale' and table_name in ('checkouts', 'orders', 'memberships')
    `.execute(db);
    expect(left.rows).toEqual([]);
    await up(db as never);
  });
});
