import { afterAll, beforeAll, expect, it } from "vitest";
import { buyProduct, createProduct, readySeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";

// Stripe's events apply the app's rules with the app's clock, as every other rule does: a purchase
// fulfilled by its webhook starts its download window at the app's now, not the machine's.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
});
afterAll(async () => {
  await t.close();
});

const DAY_MS = 24 * 60 * 60 * 1000;

it("a purchase fulfilled by checkout.session.completed is dated by the app's clock", async () => {
  const seller = await readySeller(t);
  const product = await createProduct(t, seller.cookie);
  t.clock.advance(2 * 60 * 60 * 1000);
  const orderId = await buyProduct(t, product.id, "clock@example.com");
  const order = await t.db
    .selectFrom("orders")
    .select(["created_at", "download_window_ends_at"])
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  // Within a minute of the app's clock (the webhook arrives a moment after the payment).
  expect(Math.abs(order.created_at.getTime() - t.clock.now().getTime())).toBeLessThan(60_000);
  expect(order.download_window_ends_at.getTime() - order.created_at.getTime()).toBe(30 * DAY_MS);
});
