import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OrderChanges } from "../../src/server/features/order-lifecycle/order-changes";
import { markRefunded } from "../../src/server/features/refunds/mark-refunded";
import { taxReportDaysStep } from "../../src/server/features/tax-reports/tax-report-days";
import { taxRollupOf } from "./support/tax-rollup";
import { createTestApp, signUp, type TestApp } from "./support/test-app";

// The tax report's roll-up on PostgreSQL under concurrent sales and refunds of one seller
// (docs/tax-and-invoices.md). In the app one seller's sales already wait for each other on their totals
// row earlier in OrderChanges; the step must be right on its own all the same: concurrent upserts into a
// bucket that does not exist yet insert it once and add the rest, none lost, none refused.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const changes = new OrderChanges([taxReportDaysStep]);
const SALES = 20;

describe("the tax report roll-up on PostgreSQL", () => {
  it("counts 20 concurrent sales of one bucket and 10 concurrent refunds exactly, as the orders say", async () => {
    const { userId } = await signUp(t);
    const ids = Array.from({ length: SALES }, (_, i) => `ord_pg_tax_${userId}_${i}`);
    await t.db
      .insertInto("checkouts")
      .values(
        ids.map((id) => ({
          id: `hold_${id}`,
          stripe_session_id: `cs_${id}`,
          seller_id: userId,
          stripe_account_id: "acct_tax",
          product_id: null,
          reservation: "none",
          state: "paid",
          expires_at: new Date(),
        })),
      )
      .execute();
    await t.db
      .insertInto("orders")
      .values(
        ids.map((id) => ({
          id,
          stripe_session_id: `cs_${id}`,
          stripe_account_id: "acct_tax",
          seller_id: userId,
          product_id: null,
          product_title: "Guide",
          customer_email: "buyer@example.com",
          amount_cents: 1190,
          settlement_cents: 1190,
          settlement_currency: "usd",
          tax_cents: 190,
          tax_rate: "19",
          taxability_reason: "standard_rated",
          buyer_country: "DE",
          status: "completed",
          download_window_ends_at: new Date(),
          created_at: new Date("2026-10-05T10:00:00Z"),
        })),
      )
      .execute();

    // Every sale in a transaction of its own, all at once, each holding its lock a moment.
    await Promise.all(
      ids.map((id) =>
        t.db.transaction().execute(async (trx) => {
          await changes.created(trx, {
            orderId: id,
            sellerId: userId,
            productId: null,
            checkoutId: `hold_${id}`,
            email: "buyer@example.com",
            amountCents: 1190,
            delivered: true,
            at: new Date("2026-10-05T10:00:00Z"),
          });
          await sql`select pg_sleep(0.01)`.execute(trx);
        }),
      ),
    );
    // Half refunded at once, each twice (the dashboard and Stripe's charge.refunded racing): once each.
    const refunded = ids.slice(0, SALES / 2);
    await Promise.all(
      [...refunded, ...refunded].map((id) =>
        markRefunded(t.db, changes, { orderId: id }, new Date("2026-11-02T09:00:00Z")),
      ),
    );

    const rollup = await taxRollupOf(t.db, userId);
    expect(rollup.kept).toEqual(rollup.fromOrders);
    expect(rollup.kept).toEqual([
      expect.objectContaining({
        day: "2026-10-05",
        sales_count: SALES,
        sales_net_cents: SALES * 1000,
        refunded_sales_count: SALES / 2,
        refunded_sales_tax_cents: (SALES / 2) * 190,
        refunds_count: 0,
      }),
      expect.objectContaining({
        day: "2026-11-02",
        sales_count: 0,
        refunds_count: SALES / 2,
        refunds_net_cents: (SALES / 2) * 1000,
      }),
    ]);
  });
});
