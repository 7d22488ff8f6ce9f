import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../../tests/api/support/test-database";
import type { DatabaseHandle } from "../database";
import { down, up } from "./0029_membership_tax";

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const price = (id: string, behavior?: string, code?: string) => ({
  tier_id: "t1",
  billing_interval: "month" as const,
  amount_cents: 500,
  stripe_account_id: "acct_1",
  stripe_price_id: id,
  ...(behavior ? { tax_behavior: behavior as "exclusive" } : {}),
  ...(code !== undefined ? { tax_code: code } : {}),
});

describe("0029_membership_tax", () => {
  it("keeps the prices made before as without tax, and keys the cache by tax behaviour and code", async () => {
    const db = database.db;
    await down(db as never);
    // A tier's price as the cache held it before (the tier itself is beside the point).
    await sql`
      set session_replication_role = replica;
      insert into membership_tier_prices (tier_id, billing_interval, amount_cents, stripe_account_id, stripe_price_id)
        values ('t1', 'month', 500, 'acct_1', 'price_old');
      set session_replication_role = default;
    `.execute(db);

    await up(db as never);

    const rows = () =>
      db
        .selectFrom("membership_tier_prices")
        .select(["stripe_price_id", "tax_behavior", "tax_code"])
        .orderBy("stripe_price_id")
        .execute();
    expect(await rows()).toEqual([
      { stripe_price_id: "price_old", tax_behavior: "unspecified", tax_code: "" },
    ]);
    await sql`set session_replication_role = replica`.execute(db);
    try {
      // The same tier, amount and interval with a tax behaviour (and code) is another price...
      await db
        .insertInto("membership_tier_prices")
        .values(price("price_exclusive", "exclusive", "txcd_10302000"))
        .execute();
      // ...but the same treatment twice is not, and a behaviour Stripe has not is refused.
      await expect(
        db
          .insertInto("membership_tier_prices")
          .values(price("price_again", "exclusive", "txcd_10302000"))
          .execute(),
      ).rejects.toThrow();
      await expect(
        db.insertInto("membership_tier_prices").values(price("price_odd", "sometimes")).execute(),
      ).rejects.toThrow();
    } finally {
      await sql`set session_replication_role = default`.execute(db);
    }
    const waiver = await sql<{ column_name: string }>`
      select column_name from information_schema.columns
      where table_name = 'memberships' and column_name like 'withdrawal_waiver%' order by column_name
    `.execute(db);
    expect(waiver.rows.map((row) => row.column_name)).toEqual(["withdrawal_waiver", "withdrawal_waiver_at"]);

    // Down again: only the price without tax fits the old key.
    await down(db as never);
    const before = await sql<{ stripe_price_id: string }>`
      select stripe_price_id from membership_tier_prices
    `.execute(db);
    expect(before.rows).toEqual([{ stripe_price_id: "price_old" }]);
    await up(db as never);
  });
});
