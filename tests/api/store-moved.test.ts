import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProduct, readySeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { fakeWebDist } from "./support/web-dist";

let t: TestApp;
let webDir: string;
let seller: Awaited<ReturnType<typeof readySeller>>;
let otherSeller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  webDir = await fakeWebDist();
  t = await createTestApp({ listen: true, webDistDir: webDir });
  seller = await readySeller(t);
  otherSeller = await readySeller(t);
});
afterAll(async () => {
  await t.close();
  await rm(webDir, { recursive: true, force: true });
});

const NEW_STORE = "https://new.example.com/store/abc123";
const page = (url: string) => t.request({ method: "GET", url });
const setMovedTo = (movedTo: string | null, cookie = seller.cookie) =>
  t.request({ method: "PUT", url: "/api/store-export/moved-to", cookie, body: { movedTo } });

describe("a store that moved", () => {
  it("sends its store and product pages to the new store, refuses checkout, and undoes it", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const other = await createProduct(t, otherSeller.cookie, {}, { cover: false });
    // Kept pages first, so the move must drop them.
    expect((await page(`/product/${product.id}`)).statusCode).toBe(200);
    expect((await page(`/store/${seller.userId}`)).statusCode).toBe(200);

    const refused = await setMovedTo("ftp://elsewhere");
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/https:\/\//);
    const moved = await setMovedTo(NEW_STORE);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(
      (await t.request({ method: "GET", url: "/api/store-export/moved-to", cookie: seller.cookie })).json(),
    ).toEqual({
      movedTo: NEW_STORE,
    });

    const productPage = await page(`/product/${product.id}`);
    expect(productPage.statusCode).toBe(302);
    expect(productPage.headers.location).toBe(`https://new.example.com/product/${product.id}`);
    expect(productPage.headers["cache-control"]).toBe("no-store");
    const storePage = await page(`/store/${seller.userId}`);
    expect(storePage.statusCode).toBe(302);
    expect(storePage.headers.location).toBe(NEW_STORE);
    const buy = await t.request({ method: "POST", url: "/api/checkout", body: { productId: product.id } });
    expect(buy.statusCode).toBe(410);
    expect(buy.json()).toMatchObject({
      code: "store_moved",
      message: `This store has moved to https://new.example.com/product/${product.id}`,
    });
    // Another store is untouched.
    expect((await page(`/product/${other.id}`)).statusCode).toBe(200);

    expect((await setMovedTo(null)).statusCode).toBe(200);
    expect((await page(`/product/${product.id}`)).statusCode).toBe(200);
    expect((await page(`/store/${seller.userId}`)).statusCode).toBe(200);
  });
});
