import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../../tests/api/support/test-database";
import type { DatabaseHandle } from "../database";
import { down, up } from "./0033_disputes";

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe("0033_disputes", () => {
  it("goes down and up again; an order's dispute state is one of open, won, lost; a dispute belongs to its order", async () => {
    const db = database.db;
    await down(db as never);
    await up(db as never);
    await sql`
      set session_replication_role = replica;
      insert into orders (id, stripe_session_id, stripe_account_id, seller_id, product_title, customer_email,
          amount_cents, settlement_cents, settlement_currency, status, download_window_ends_at, created_at)
        values ('o33', 'cs_33', 'acct_1', 'u1', 'Guide', 'a@example.com', 1999, 1999, 'usd', 'completed', now(), now());
      set session_replication_role = default;
    `.execute(db);
    const before = await sql<Record<string, unknown>>`
      select dispute_id, dispute_status from orders where id = 'o33'`.execute(db);
    expect(before.rows).toEqual([{ dispute_id: null, dispute_status: null }]);
    await sql`update orders set dispute_id = 'dp_1', dispute_status = 'open' where id = 'o33'`.execute(db);
    await expect(
      sql`update orders set dispute_status = 'disputed' where id = 'o33'`.execute(db),
    ).rejects.toThrow(/orders_dispute_status_check/);
    await sql`
      insert into disputes (id, seller_id, order_id, stripe_account_id, amount_cents, currency, reason, status)
        values ('dp_1', 'u1', 'o33', 'acct_1', 1999, 'usd', 'fraudulent', 'needs_response')`.execute(db);
    const dispute = await sql<Record<string, unknown>>`
      select auto_submit, evidence, submitted_at, outcome from disputes where id = 'dp_1'`.execute(db);
    expect(dispute.rows).toEqual([{ auto_submit: false, evidence: null, submitted_at: null, outcome: null }]);
    await expect(
      sql`insert into disputes (id, seller_id, order_id, stripe_account_id, amount_cents, currency, reason, status)
          values ('dp_2', 'u1', 'nope', 'acct_1', 1, 'usd', 'general', 'needs_response')`.execute(db),
    ).rejects.toThrow(/foreign key/);
  });
});
