import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProduct, readySeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

// Runs only on PostgreSQL (npm run test:pg): two app instances share one database, as in production,
// each with its own kept pages.
let changed: TestApp;
let other: TestApp;
beforeAll(async () => {
  changed = await createTestApp({ listen: true });
  other = await createTestApp({ listen: true, sharing: changed });
});
afterAll(async () => {
  await other.close();
  await changed.close();
});

/** Well before the kept page would expire by itself (10 s): only the event can explain the change. */
const SOONER_THAN_TTL_MS = 5_000;

describe("kept public pages on two instances", () => {
  it("a change made through one instance shows at once on the other's kept pages", async () => {
    const seller = await readySeller(changed);
    const product = await createProduct(
      changed,
      seller.cookie,
      { title: "Shared Prints", inventoryType: "limited", quantityAvailable: "4" },
      { cover: false },
    );
    const page = (url: string) => other.request({ method: "GET", url });
    const store = `/store/${seller.userId}`;
    expect((await page(`/product/${product.id}`)).body).toContain("Only 4 left in stock");
    expect((await page(store)).body).toContain("Digital Store");

    const renamed = await changed.request({
      method: "PUT",
      url: "/api/store-settings",
      cookie: seller.cookie,
      body: { storeName: "North Light" },
    });
    expect(renamed.statusCode).toBe(200);
    await eventually(
      async () => expect((await page(store)).body).toContain("North Light"),
      SOONER_THAN_TTL_MS,
    );
    expect((await page(`/product/${product.id}`)).body).toContain("North Light");

    const bought = await changed.request({
      method: "POST",
      url: "/api/checkout",
      body: { productId: product.id },
    });
    expect(bought.statusCode, bought.body).toBe(200);
    await eventually(
      async () => expect((await page(`/product/${product.id}`)).body).toContain("Only 3 left in stock"),
      SOONER_THAN_TTL_MS,
    );
  });
});
