import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCOUNT_REFUSAL_MESSAGES } from "../../src/contracts/discounts";
import { control } from "./support/emulator-control";
import { createProduct, readySeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

// Two instances of one deployment on one PostgreSQL database, as behind a load balancer: only real
// concurrent connections can show that a code's uses are never over-sold.
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

const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const usesOf = (codeId: string) =>
  one.db
    .selectFrom("discount_codes")
    .select(["uses_reserved", "uses_used"])
    .where("id", "=", codeId)
    .executeTakeFirstOrThrow();

describe("a discount code's uses on two instances", () => {
  it("a code with 5 uses left makes exactly 5 paid orders out of 12 concurrent checkouts", async () => {
    const product = await createProduct(one, seller.cookie, {}, { cover: false });
    const created = await one.request({
      method: "POST",
      url: "/api/discount-codes",
      cookie: seller.cookie,
      body: { code: "RUSH", kind: "percent", value: "20", appliesTo: "all", maxUses: "6" },
    });
    expect(created.statusCode, created.body).toBe(201);
    const code = created.json() as { id: string; code: string };
    // One use went to an earlier buyer: 5 are left.
    const earlier = await one.request({
      method: "POST",
      url: "/api/checkout",
      body: { productId: product.id, code: "rush" },
      ip: "192.0.2.200",
    });
    await control(one.emulator).payCheckout(
      sessionIdOf(earlier.json().url),
      "4242424242424242",
      "early@example.com",
    );
    await eventually(async () => expect(await usesOf(code.id)).toEqual({ uses_reserved: 0, uses_used: 1 }));

    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? one : two).request({
          method: "POST",
          url: "/api/checkout",
          body: { productId: product.id, code: "rush" },
          ip: `192.0.2.${i + 1}`,
        }),
      ),
    );
    const opened = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(opened).toHaveLength(5);
    for (const answer of refused) {
      expect(answer.statusCode, answer.body).toBe(422);
      expect(answer.json().message).toBe(DISCOUNT_REFUSAL_MESSAGES.used_up);
    }
    expect(await usesOf(code.id)).toEqual({ uses_reserved: 5, uses_used: 1 });

    await Promise.all(
      opened.map((answer, i) =>
        control(one.emulator).payCheckout(
          sessionIdOf(answer.json().url),
          "4242424242424242",
          `rush-${i}@example.com`,
        ),
      ),
    );
    // Both instances' janitors and the webhooks settle the same payments at once: each use counted once.
    await Promise.all([one.app.settleCheckouts(new Date()), two.app.settleCheckouts(new Date())]);
    await eventually(async () => {
      const orders = await one.db
        .selectFrom("orders")
        .select(["amount_cents", "discount_code", "discount_cents"])
        .where("discount_code_id", "=", code.id)
        .where("status", "=", "completed")
        .execute();
      expect(orders).toHaveLength(6);
      expect(
        new Set(
          orders.map((order) => `${order.amount_cents}/${order.discount_code}/${order.discount_cents}`),
        ),
      ).toEqual(new Set(["1599/RUSH/400"]));
    });
    expect(await usesOf(code.id)).toEqual({ uses_reserved: 0, uses_used: 6 });
    const more = await two.request({
      method: "POST",
      url: "/api/checkout",
      body: { productId: product.id, code: "RUSH" },
      ip: "192.0.2.99",
    });
    expect(more.statusCode).toBe(422);
  });
});
