import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PRODUCT_FILE_MESSAGES } from "../../src/contracts/product-files";
import {
  PRODUCT_MESSAGES,
  type PublicProduct,
  quantityBelowTakenMessage,
  type SellerProductDetail,
} from "../../src/contracts/products";
import { minimalPdf, pngImage } from "../../src/server/features/uploads/test-fixtures";
import { control } from "./support/emulator-control";
import { createProduct, productFilesOf, quantityOf, readySeller, upload } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

let t: TestApp;
let webDir: string;
let seller: Awaited<ReturnType<typeof readySeller>>;
let other: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  // A built web app as Vite writes it, so the server renders the public product page.
  webDir = await mkdtemp(path.join(tmpdir(), "flatfee-web-"));
  await mkdir(path.join(webDir, ".vite"));
  await writeFile(
    path.join(webDir, ".vite", "manifest.json"),
    JSON.stringify({ "index.html": { file: "assets/app.js", isEntry: true } }),
  );
  await writeFile(path.join(webDir, "index.html"), '<!doctype html><div id="root"></div>');
  t = await createTestApp({ listen: true, webDistDir: webDir });
  [seller, other] = [await readySeller(t), await readySeller(t)];
});
afterAll(async () => {
  await t.close();
  await rm(webDir, { recursive: true, force: true });
});
afterEach(() => t.clock.reset());

const edit = (productId: string, body: unknown, cookie = seller.cookie) =>
  t.request({ method: "PATCH", url: `/api/products/${productId}`, cookie, body });
const detail = (productId: string, cookie = seller.cookie) =>
  t.request({ method: "GET", url: `/api/products/${productId}`, cookie });
const publicProduct = async (productId: string) =>
  (await t.request({ method: "GET", url: `/api/public/products/${productId}` })).json() as PublicProduct;
const productRow = (productId: string) =>
  t.db.selectFrom("products").selectAll().where("id", "=", productId).executeTakeFirstOrThrow();
const uploadRow = (uploadId: string) =>
  t.db.selectFrom("uploads").selectAll().where("id", "=", uploadId).executeTakeFirst();
const usedBytes = async () =>
  (await t.request({ method: "GET", url: "/api/uploads/usage", cookie: seller.cookie })).json()
    .usedBytes as number;
const getFile = (url: string) => t.app.server.inject({ method: "GET", url });

const limitedProduct = (quantity: string) =>
  createProduct(
    t,
    seller.cookie,
    { inventoryType: "limited", quantityAvailable: quantity },
    { cover: false },
  );
const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const buyNow = async (productId: string) => {
  const response = await t.request({ method: "POST", url: "/api/checkout", body: { productId } });
  expect(response.statusCode, response.body).toBe(200);
  return sessionIdOf(response.json().url);
};
const lookup = (sessionId: string) =>
  t.request({ method: "GET", url: `/api/orders/by-session/${sessionId}` });
async function pay(sessionId: string, email = `buyer-${Date.now()}@example.com`) {
  await control(t.emulator).payCheckout(sessionId, "4242424242424242", email);
  await eventually(async () => expect((await lookup(sessionId)).statusCode).toBe(200));
}
const orderOf = (sessionId: string) =>
  t.db.selectFrom("orders").selectAll().where("stripe_session_id", "=", sessionId).executeTakeFirstOrThrow();

describe("editing a product", () => {
  it("changes title, description and price; the seller and the public see them at once", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const response = await edit(product.id, {
      title: "  The Guide, Second Edition ",
      description: "Now with answers.",
      price: "24.5",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      id: product.id,
      title: "The Guide, Second Edition",
      description: "Now with answers.",
      priceCents: 2450,
      inventoryType: "unlimited",
      unitsSold: 0,
      unitsHeld: 0,
    });
    expect(await publicProduct(product.id)).toMatchObject({
      title: "The Guide, Second Edition",
      description: "Now with answers.",
      priceCents: 2450,
    });
    expect((await detail(product.id)).json()).toMatchObject({ title: "The Guide, Second Edition" });
  });

  it("shows on the server-rendered product page at once, and tells every instance", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Before", price: "5" }, { cover: false });
    const page = () => t.request({ method: "GET", url: `/product/${product.id}` });
    const first = await page();
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain("Before");
    expect((await page()).body).toContain("$5.00");

    const events: unknown[] = [];
    const unsubscribe = t.events.subscribeAll((userId, event) => {
      if (userId === seller.userId) events.push(event);
    });
    try {
      expect((await edit(product.id, { title: "After", price: "7" })).statusCode).toBe(200);
    } finally {
      unsubscribe();
    }
    expect(events).toContainEqual({ type: "public-pages.changed" });
    const after = await page();
    expect(after.body).toContain("After");
    expect(after.body).toContain("$7.00");
    expect(after.body).not.toContain("Before");
  });

  it("leaves out what is not sent", async () => {
    const product = await createProduct(t, seller.cookie, {
      inventoryType: "limited",
      quantityAvailable: "4",
    });
    const before = await productRow(product.id);
    expect((await edit(product.id, { description: "Only this" })).statusCode).toBe(200);
    const after = await productRow(product.id);
    expect(after).toEqual({ ...before, description: "Only this", updated_at: after.updated_at });
  });

  it("answers 404 for another seller's product and 401 when signed out, changing nothing", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const before = await productRow(product.id);
    const foreign = await edit(product.id, { title: "Mine now" }, other.cookie);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(PRODUCT_MESSAGES.notFound);
    expect((await detail(product.id, other.cookie)).statusCode).toBe(404);
    expect((await edit(product.id, { title: "Anyone" }, "")).statusCode).toBe(401);
    expect((await edit("no-such-product", { title: "x" })).statusCode).toBe(404);
    expect(await productRow(product.id)).toEqual(before);
  });

  it.each([
    ["blank title", { title: "   " }, PRODUCT_MESSAGES.missingFields],
    ["empty price", { price: "" }, PRODUCT_MESSAGES.missingFields],
    ["price abc", { price: "abc" }, PRODUCT_MESSAGES.invalidPrice],
    ["price 0.10", { price: "0.10" }, PRODUCT_MESSAGES.priceTooLow],
    ["price 1000000", { price: "1000000" }, PRODUCT_MESSAGES.priceTooHigh],
    ["title 201 chars", { title: "x".repeat(201) }, PRODUCT_MESSAGES.titleTooLong],
    ["description 5001 chars", { description: "x".repeat(5001) }, PRODUCT_MESSAGES.descriptionTooLong],
    [
      "limited without quantity",
      { inventoryType: "limited", quantityAvailable: "" },
      PRODUCT_MESSAGES.missingFields,
    ],
    [
      "quantity 2.5",
      { inventoryType: "limited", quantityAvailable: "2.5" },
      PRODUCT_MESSAGES.quantityInvalid,
    ],
    ["quantity without inventory type", { quantityAvailable: "3" }, PRODUCT_MESSAGES.missingFields],
    ["product without files", { files: [] }, PRODUCT_FILE_MESSAGES.noFiles],
  ])("refuses a %s with the create form's message, attaching nothing", async (_case, fields, message) => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const cover = await upload(t, seller.cookie, "product-cover", "new-cover.png", await pngImage());
    const before = await productRow(product.id);
    const response = await edit(product.id, { title: "Fine", coverUploadId: cover, ...fields });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(await productRow(product.id)).toEqual(before);
    expect((await uploadRow(cover))?.status).toBe("completed");
  });
});

describe("price", () => {
  it("applies to new checkouts only: an open checkout and its order keep the old price", async () => {
    const product = await createProduct(t, seller.cookie, { price: "10" }, { cover: false });
    const openBefore = await buyNow(product.id);
    expect((await edit(product.id, { price: "15.25" })).statusCode).toBe(200);
    const openAfter = await buyNow(product.id);

    await pay(openBefore);
    await pay(openAfter);
    expect((await orderOf(openBefore)).amount_cents).toBe(1000);
    expect((await orderOf(openAfter)).amount_cents).toBe(1525);

    expect((await edit(product.id, { price: "3" })).statusCode).toBe(200);
    expect((await orderOf(openBefore)).amount_cents).toBe(1000);
    expect((await orderOf(openAfter)).amount_cents).toBe(1525);
  });
});

describe("stock", () => {
  it("is a total that can't go below the units sold and held; what is left follows it", async () => {
    const product = await limitedProduct("5");
    const sold = await buyNow(product.id);
    await pay(sold);
    const held = await buyNow(product.id);
    expect(await quantityOf(t, product.id)).toBe(3);
    expect((await detail(product.id)).json()).toMatchObject({
      quantityAvailable: 3,
      unitsSold: 1,
      unitsHeld: 1,
    } satisfies Partial<SellerProductDetail>);

    const before = await productRow(product.id);
    const tooLow = await edit(product.id, {
      title: "Ignored",
      inventoryType: "limited",
      quantityAvailable: "1",
    });
    expect(tooLow.statusCode).toBe(409);
    expect(tooLow.json()).toMatchObject({
      message: quantityBelowTakenMessage(1, 1),
      details: { field: "quantityAvailable", minimum: 2 },
    });
    expect(tooLow.json().message).toBe("Quantity can't be below 2: 1 sold and 1 in an open checkout.");
    expect(await productRow(product.id)).toEqual(before);

    // Exactly the units taken: none left, sold out for everyone else.
    const exact = await edit(product.id, { inventoryType: "limited", quantityAvailable: "2" });
    expect(exact.json()).toMatchObject({ quantityAvailable: 0, unitsSold: 1, unitsHeld: 1 });
    expect(await publicProduct(product.id)).toMatchObject({ soldOut: true, purchasable: false });

    // The held unit comes back when its checkout expires: the total stays 2.
    await control(t.emulator).expireCheckout(held);
    await eventually(async () => expect(await quantityOf(t, product.id)).toBe(1));
    expect((await detail(product.id)).json()).toMatchObject({ unitsSold: 1, unitsHeld: 0 });

    expect(
      (await edit(product.id, { inventoryType: "limited", quantityAvailable: "10" })).json(),
    ).toMatchObject({
      quantityAvailable: 9,
    });
    const unlimited = await edit(product.id, { inventoryType: "unlimited", quantityAvailable: "1" });
    expect(unlimited.json()).toMatchObject({ inventoryType: "unlimited", quantityAvailable: null });
    expect(await publicProduct(product.id)).toMatchObject({ soldOut: false, purchasable: true });
    // Limited again: the unit sold while it was limited still counts.
    const again = await edit(product.id, { inventoryType: "limited", quantityAvailable: "0" });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("Quantity can't be below 1: 1 sold.");
  });

  it("a late payment for a unit given back is delivered once the product is unlimited", async () => {
    const product = await limitedProduct("1");
    const sessionId = await buyNow(product.id);
    // The hold was given back (as if the expiry janitor ran), then the seller lifted the limit.
    await t.db
      .updateTable("checkouts")
      .set({ reservation: "released" })
      .where("stripe_session_id", "=", sessionId)
      .execute();
    expect((await edit(product.id, { inventoryType: "unlimited" })).statusCode).toBe(200);
    await pay(sessionId);
    expect((await orderOf(sessionId)).status).toBe("completed");
  });
});

describe("file and cover", () => {
  it("replaces the file: past buyers download the new one, the old bytes and row are gone", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const sessionId = await buyNow(product.id);
    await pay(sessionId);
    const [before] = await productFilesOf(t, product.id);
    const oldFile = (await uploadRow(before!.upload_id))!;

    const newBytes = minimalPdf(2048);
    const newFile = await upload(t, seller.cookie, "product-file", "guide-v2.pdf", newBytes);
    const usedBefore = await usedBytes();
    // Replaced in place: the file keeps its name (buyers know it by it), its download the new bytes.
    const response = await edit(product.id, { files: [{ id: before!.id, uploadId: newFile }] });
    expect(response.statusCode, response.body).toBe(200);
    expect(await usedBytes()).toBe(usedBefore - Number(oldFile.size_bytes));
    expect(response.json()).toMatchObject({ fileName: "guide.pdf", fileSizeBytes: newBytes.length });
    expect(await uploadRow(before!.upload_id)).toBeUndefined();
    expect((await uploadRow(newFile))?.status).toBe("attached");
    expect(await t.storage.stat("product-files", oldFile.storage_key!)).toBeUndefined();

    const { purchase } = (await lookup(sessionId)).json();
    const token = (purchase.downloadPath as string).replace("/download/", "");
    const started = await t.request({ method: "POST", url: `/api/downloads/${token}` });
    expect(started.statusCode, started.body).toBe(200);
    const file = await getFile(started.json().url);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(newBytes)).toBe(true);
    expect(file.headers["content-disposition"]).toContain("guide.pdf");
  });

  it("replaces the cover, then removes it; each old cover's images are deleted", async () => {
    const product = await createProduct(t, seller.cookie);
    const first = await productRow(product.id);
    expect((await getFile(first.cover_image_url!)).statusCode).toBe(200);

    const newCover = await upload(
      t,
      seller.cookie,
      "product-cover",
      "cover-2.png",
      await pngImage(1000, 600),
    );
    const replaced = await edit(product.id, { coverUploadId: newCover });
    expect(replaced.statusCode, replaced.body).toBe(200);
    const second = await productRow(product.id);
    expect(second.cover_upload_id).toBe(newCover);
    expect(second.cover_image_url).not.toBe(first.cover_image_url);
    expect((await publicProduct(product.id)).cover?.src).toBe(replaced.json().cover.src);
    expect((await getFile(first.cover_image_url!)).statusCode).toBe(404);
    for (const variant of first.cover_variants ?? [])
      expect((await getFile(variant.url)).statusCode).toBe(404);
    expect(await uploadRow(first.cover_upload_id!)).toBeUndefined();
    expect((await getFile(second.cover_image_url!)).statusCode).toBe(200);

    const removed = await edit(product.id, { coverUploadId: null });
    expect(removed.json()).toMatchObject({ cover: null, coverImageUrl: null, coverThumbnailUrl: null });
    expect(await productRow(product.id)).toMatchObject({ cover_upload_id: null, cover_variants: null });
    expect((await getFile(second.cover_image_url!)).statusCode).toBe(404);
    expect(await uploadRow(newCover)).toBeUndefined();
    expect((await publicProduct(product.id)).cover).toBeNull();
  });

  it("refuses an upload that is not ready, another seller's, or in use, naming the field; nothing changes", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const otherProduct = await createProduct(t, seller.cookie, {}, { cover: false });
    const [inUse] = (await productFilesOf(t, otherProduct.id)).map((file) => file.upload_id);
    const [own] = (await productFilesOf(t, product.id)).map((file) => file.upload_id);
    const theirs = await upload(t, other.cookie, "product-file", "theirs.pdf", minimalPdf());
    const goodFile = await upload(t, seller.cookie, "product-file", "good.pdf", minimalPdf(10));
    const before = await productRow(product.id);

    for (const [body, field] of [
      [{ files: [{ uploadId: theirs }] }, "files"],
      [{ files: [{ uploadId: inUse }] }, "files"],
      [{ files: [{ uploadId: own }] }, "files"],
      [{ files: [{ uploadId: goodFile }], coverUploadId: "no-such-upload" }, "coverUploadId"],
      [{ coverUploadId: goodFile }, "coverUploadId"],
    ] as const) {
      const response = await edit(product.id, { title: "Changed", ...body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ code: "upload_not_ready", details: { field } });
    }
    expect(await productRow(product.id)).toEqual(before);
    expect((await uploadRow(goodFile))?.status).toBe("completed");
    expect((await uploadRow(theirs))?.status).toBe("completed");
    expect((await uploadRow(inUse!))?.status).toBe("attached");
  });
});
