import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORDER_MESSAGES } from "../../src/contracts/orders";
import { createProduct, quantityOf, readySeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";

// Two instances of one deployment on one PostgreSQL database: only real concurrent connections can
// show that free claims never deliver more units than the stock holds.
let one: TestApp;
let two: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  one = await createTestApp({ listen: true });
  two = await createTestApp({ sharing: one });
  seller = await readySeller(one);
});
afterAll(async () => {
  await two.close();
  await one.close();
});

describe("free claims on two instances", () => {
  it("a free product with 3 units left and 10 concurrent claims makes exactly 3 orders", async () => {
    const product = await createProduct(
      one,
      seller.cookie,
      { price: "0", inventoryType: "limited", quantityAvailable: "3" },
      { cover: false },
    );
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? one : two).request({
          method: "POST",
          url: "/api/checkout/free",
          body: { productId: product.id, email: `rush-${i}@example.com` },
          ip: `203.0.113.${i + 1}`,
        }),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 202)).toHaveLength(3);
    const refused = answers.filter((answer) => answer.statusCode !== 202);
    expect(refused).toHaveLength(7);
    for (const answer of refused) {
      expect(answer.statusCode).toBe(409);
      expect(answer.json().message).toBe(ORDER_MESSAGES.soldOut);
    }
    const orders = await one.db
      .selectFrom("orders")
      .select(["amount_cents", "status"])
      .where("product_id", "=", product.id)
      .execute();
    expect(orders).toHaveLength(3);
    expect(orders.every((order) => order.amount_cents === 0 && order.status === "completed")).toBe(true);
    expect(await quantityOf(one, product.id)).toBe(0);
    const receipts = await one.db
      .selectFrom("outbox_emails")
      .select("to_address")
      .where("to_address", "like", "rush-%@example.com")
      .execute();
    expect(receipts).toHaveLength(3);
  });
});
