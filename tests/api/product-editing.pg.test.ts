import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeUnit } from "../../src/server/features/orders/stock";
import { createProduct, quantityOf, readySeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";

// Runs only on PostgreSQL (npm run test:pg): a stock edit racing checkouts on real concurrent connections.
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

const setTotal = (instance: TestApp, productId: string, total: number) =>
  instance.request({
    method: "PATCH",
    url: `/api/products/${productId}`,
    cookie: seller.cookie,
    body: { inventoryType: "limited", quantityAvailable: String(total) },
  });
const heldUnits = async (productId: string) =>
  (
    await one.db
      .selectFrom("checkouts")
      .select("id")
      .where("product_id", "=", productId)
      .where("reservation", "=", "held")
      .execute()
  ).length;

describe("editing stock while buyers check out", () => {
  it("counts a unit whose checkout is still committing: the edit waits for it", async () => {
    const product = await createProduct(
      one,
      seller.cookie,
      { inventoryType: "limited", quantityAvailable: "2" },
      { cover: false },
    );
    let edit: ReturnType<typeof setTotal> | undefined;
    let editDone = false;
    // A checkout as create-checkout.ts records it, paused before it commits.
    await one.db.transaction().execute(async (trx) => {
      expect(await takeUnit(trx, product.id)).toBe(true);
      await trx
        .insertInto("checkouts")
        .values({
          id: `hold_${randomBytes(8).toString("hex")}`,
          seller_id: seller.userId,
          stripe_account_id: seller.account,
          product_id: product.id,
          reservation: "held",
          network_hash: randomBytes(8).toString("hex"),
          visitor_hash: randomBytes(8).toString("hex"),
          expires_at: new Date(Date.now() + 30 * 60_000),
        })
        .execute();
      edit = setTotal(two, product.id, 1);
      void edit.then(() => {
        editDone = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(editDone).toBe(false);
    });
    const response = await edit!;
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ quantityAvailable: 0, unitsHeld: 1 });
    expect(await quantityOf(one, product.id)).toBe(0);
  });

  it("never oversells when the total is lowered during a rush of Buy Nows on two instances", async () => {
    for (const round of [1, 2, 3]) {
      const product = await createProduct(
        one,
        seller.cookie,
        { inventoryType: "limited", quantityAvailable: "10" },
        { cover: false },
      );
      const buys = Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? one : two).request({
          method: "POST",
          url: "/api/checkout",
          body: { productId: product.id },
          ip: `198.51.100.${round * 20 + i}`,
        }),
      );
      const [edit, ...answers] = await Promise.all([setTotal(one, product.id, 4), ...buys]);
      expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 409)).toBe(true);
      const held = await heldUnits(product.id);
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(held);
      const total = edit!.statusCode === 200 ? 4 : 10;
      if (edit!.statusCode !== 200) expect(edit!.statusCode).toBe(409);
      expect(held).toBeLessThanOrEqual(total);
      expect((await quantityOf(one, product.id))! + held).toBe(total);
    }
  });
});
