import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PRODUCT_MESSAGES,
  type PublicProduct,
  type SellerProduct,
  type Storefront,
} from "../../src/contracts/products";
import { STORE_SETTINGS_MESSAGES } from "../../src/contracts/store-settings";
import { minimalPdf, pngImage } from "../../src/server/features/uploads/test-fixtures";
import { SELLER_ANSWER_TTL_MS } from "../../src/server/http/seller-answers";
import { control } from "./support/emulator-control";
import { createProduct, productFilesOf, readySeller, upload } from "./support/sellers";
import { createTestApp, signUp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let other: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  [seller, other] = [await readySeller(t), await readySeller(t)];
});
afterAll(async () => {
  await t.close();
});

const DAY_MS = 24 * 60 * 60 * 1000;
const productRows = (sellerId: string) =>
  t.db.selectFrom("products").selectAll().where("user_id", "=", sellerId).execute();
const publicProduct = (id: string) => t.request({ method: "GET", url: `/api/public/products/${id}` });
const storefront = (userId: string) => t.request({ method: "GET", url: `/api/public/stores/${userId}` });
const filesOnDisk = async () =>
  (await readdir(t.storageRoot, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile())
    .length;

describe("creating products", () => {
  it("creates a live product from a checked PDF and cover, priced in cents from the typed decimal", async () => {
    const product = await createProduct(t, seller.cookie, {
      price: "19.9",
      inventoryType: "limited",
      quantityAvailable: "3",
    });
    const [row] = (await productRows(seller.userId)).filter((r) => r.id === product.id);
    expect(row).toMatchObject({
      price_cents: 1990,
      inventory_type: "limited",
      quantity_available: 3,
      is_active: true,
    });
    expect(product).toMatchObject({ fileName: "guide.pdf", fileType: "application/pdf", fileCount: 1 });
    const [file, ...others] = await productFilesOf(t, product.id);
    expect(others).toEqual([]);
    expect(file).toMatchObject({ display_name: "guide.pdf", position: 0 });
    expect(product.id).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(product.coverImageUrl).toMatch(/^\/files\/public\/product-covers\//);
    const uploads = await t.db
      .selectFrom("uploads")
      .select("status")
      .where("id", "in", [file!.upload_id, row!.cover_upload_id!])
      .execute();
    expect(uploads.map((u) => u.status)).toEqual(["attached", "attached"]);
  });

  it.each([
    [{ title: "   " }, PRODUCT_MESSAGES.missingFields],
    [{ price: "" }, PRODUCT_MESSAGES.missingFields],
    [{ price: "abc" }, PRODUCT_MESSAGES.invalidPrice],
    [{ price: "1.999" }, PRODUCT_MESSAGES.invalidPrice],
    [{ price: "0.10" }, PRODUCT_MESSAGES.priceTooLow],
    [{ inventoryType: "limited", quantityAvailable: "" }, PRODUCT_MESSAGES.missingFields],
    [{ inventoryType: "limited", quantityAvailable: "-1" }, PRODUCT_MESSAGES.quantityInvalid],
    [{ inventoryType: "limited", quantityAvailable: "2.5" }, PRODUCT_MESSAGES.quantityInvalid],
    [{ title: "x".repeat(201) }, PRODUCT_MESSAGES.titleTooLong],
  ])("refuses %o with '%s' and changes nothing", async (fields, message) => {
    const fileUploadId = await upload(t, seller.cookie, "product-file", "a.pdf", minimalPdf());
    const before = (await productRows(seller.userId)).length;
    const response = await t.request({
      method: "POST",
      url: "/api/products",
      cookie: seller.cookie,
      body: { title: "T", description: "", price: "5", inventoryType: "unlimited", fileUploadId, ...fields },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect((await productRows(seller.userId)).length).toBe(before);
    const uploadRow = await t.db
      .selectFrom("uploads")
      .select("status")
      .where("id", "=", fileUploadId)
      .executeTakeFirstOrThrow();
    expect(uploadRow.status).toBe("completed");
  });

  it("refuses a product without a file ('Missing fields')", async () => {
    const response = await t.request({
      method: "POST",
      url: "/api/products",
      cookie: seller.cookie,
      body: { title: "T", price: "5", inventoryType: "unlimited", fileUploadId: "" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(PRODUCT_MESSAGES.missingFields);
  });

  it("refuses another seller's upload, and attaches nothing when the cover is bad", async () => {
    const othersFile = await upload(t, other.cookie, "product-file", "theirs.pdf", minimalPdf());
    const stolen = await t.request({
      method: "POST",
      url: "/api/products",
      cookie: seller.cookie,
      body: { title: "T", price: "5", inventoryType: "unlimited", fileUploadId: othersFile },
    });
    expect(stolen.statusCode).toBe(400);

    const mine = await upload(t, seller.cookie, "product-file", "mine.pdf", minimalPdf());
    const badCover = await t.request({
      method: "POST",
      url: "/api/products",
      cookie: seller.cookie,
      body: { title: "T", price: "5", inventoryType: "unlimited", fileUploadId: mine, coverUploadId: "nope" },
    });
    expect(badCover.statusCode).toBe(400);
    const row = await t.db
      .selectFrom("uploads")
      .select("status")
      .where("id", "=", mine)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("completed");
  });

  it("needs a paid plan and completed onboarding, already to upload a product file or cover", async () => {
    const newcomer = await signUp(t);
    for (const purpose of ["product-file", "product-cover"]) {
      const intent = await t.request({
        method: "POST",
        url: "/api/uploads",
        cookie: newcomer.cookie,
        body: { purpose, fileName: "a.pdf", sizeBytes: 100, contentType: "" },
      });
      expect(intent.statusCode).toBe(403);
      expect(intent.json().message).toBe(PRODUCT_MESSAGES.setupRequired);
    }
    const response = await t.request({
      method: "POST",
      url: "/api/products",
      cookie: newcomer.cookie,
      body: { title: "T", price: "5", inventoryType: "unlimited", fileUploadId: "anything" },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(PRODUCT_MESSAGES.setupRequired);
    // A profile picture needs only the account (store settings are open to every seller).
    const picture = await t.request({
      method: "POST",
      url: "/api/uploads",
      cookie: newcomer.cookie,
      body: { purpose: "profile-picture", fileName: "me.png", sizeBytes: 100, contentType: "image/png" },
    });
    expect(picture.statusCode).toBe(201);
  });
});

describe("the seller's products", () => {
  it("lists only the seller's own products, newest first, with the total", async () => {
    const { cookie } = await readySeller(t);
    const created: string[] = [];
    for (const title of ["one", "two", "three"])
      created.push((await createProduct(t, cookie, { title }, { cover: false })).id);
    const list = (await t.request({ method: "GET", url: "/api/products?limit=2", cookie })).json() as {
      products: SellerProduct[];
      total: number;
    };
    expect(list.total).toBe(3);
    expect(list.products.map((p) => p.title)).toEqual(["three", "two"]);
  });

  it("deletes a product and its files; another seller cannot", async () => {
    const before = await filesOnDisk();
    const product = await createProduct(t, seller.cookie);
    expect(await filesOnDisk()).toBeGreaterThan(before);

    const foreign = await t.request({
      method: "DELETE",
      url: `/api/products/${product.id}`,
      cookie: other.cookie,
    });
    expect(foreign.statusCode).toBe(404);
    expect((await publicProduct(product.id)).statusCode).toBe(200);

    const own = await t.request({
      method: "DELETE",
      url: `/api/products/${product.id}`,
      cookie: seller.cookie,
    });
    expect(own.statusCode).toBe(204);
    expect((await publicProduct(product.id)).statusCode).toBe(404);
    expect(await filesOnDisk()).toBe(before);
  });
});

describe("public pages", () => {
  it("shows a product with its seller block and stock, never its file", async () => {
    await t.request({
      method: "PUT",
      url: "/api/store-settings",
      cookie: seller.cookie,
      body: { storeName: "Ada's Shop" },
    });
    const product = await createProduct(t, seller.cookie, {
      inventoryType: "limited",
      quantityAvailable: "2",
    });
    const response = await publicProduct(product.id);
    const body = response.json() as PublicProduct;
    expect(body).toMatchObject({
      priceCents: 1999,
      quantityAvailable: 2,
      soldOut: false,
      purchasable: true,
      seller: { id: seller.userId, storeName: "Ada's Shop" },
    });
    expect(response.body).not.toContain("file_upload_id");
    expect(response.body).not.toContain("guide.pdf");
  });

  it("marks a limited product with 0 left as sold out and not purchasable", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { inventoryType: "limited", quantityAvailable: "0" },
      { cover: false },
    );
    expect((await publicProduct(product.id)).json()).toMatchObject({
      soldOut: true,
      purchasable: false,
      unavailableReason: "Sold Out",
    });
  });

  it("hides inactive products", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    await t.db.updateTable("products").set({ is_active: false }).where("id", "=", product.id).execute();
    expect((await publicProduct(product.id)).statusCode).toBe(404);
    const store = (await storefront(seller.userId)).json() as Storefront;
    expect(store.products.map((p) => p.id)).not.toContain(product.id);
  });

  it("storefront: profile and active products newest first", async () => {
    const { cookie, userId } = await readySeller(t);
    expect(((await storefront(userId)).json() as Storefront).products).toEqual([]);
    await createProduct(t, cookie, { title: "first" }, { cover: false });
    await createProduct(t, cookie, { title: "second" }, { cover: false });
    const store = (await storefront(userId)).json() as Storefront;
    expect(store.seller).toMatchObject({ id: userId, storeName: null });
    expect(store.products.map((p) => p.title)).toEqual(["second", "first"]);
    expect((await storefront("no-such-seller")).statusCode).toBe(404);
  });

  it("keeps pages visible but stops sales when the plan lapses, and hides them 30 days after cancellation", async () => {
    const lapsing = await readySeller(t);
    const product = await createProduct(t, lapsing.cookie, {}, { cover: false });
    const sub = await t.db
      .selectFrom("subscriptions")
      .select("stripe_subscription_id")
      .where("user_id", "=", lapsing.userId)
      .executeTakeFirstOrThrow();

    await control(t.emulator).renew(sub.stripe_subscription_id, "failed");
    const standing = async () =>
      (await t.request({ method: "GET", url: "/api/seller/status", cookie: lapsing.cookie })).json().standing;
    await eventually(async () => expect(await standing()).toBe("grace"));
    expect((await publicProduct(product.id)).json().purchasable).toBe(true);
    t.clock.advance(3 * DAY_MS + 1000);
    expect((await publicProduct(product.id)).json()).toMatchObject({
      purchasable: false,
      unavailableReason: expect.stringContaining("isn't accepting"),
    });
    t.clock.advance(-(3 * DAY_MS + 1000));

    await t.stripe.subscriptions.cancel(sub.stripe_subscription_id);
    await eventually(async () => expect(await standing()).toBe("canceled"));
    expect((await publicProduct(product.id)).statusCode).toBe(200);
    t.clock.advance(31 * DAY_MS);
    expect((await publicProduct(product.id)).statusCode).toBe(404);
    expect((await storefront(lapsing.userId)).statusCode).toBe(404);
    t.clock.advance(-31 * DAY_MS);
  });
});

describe("store settings", () => {
  it("trims, saves empty as null, and refuses over-long fields with the spec's messages", async () => {
    const saved = await t.request({
      method: "PUT",
      url: "/api/store-settings",
      cookie: other.cookie,
      body: { storeName: "  Grace's Goods  ", storeTagline: "   ", storeDescription: "Hand-made files" },
    });
    expect(saved.json()).toEqual({
      storeName: "Grace's Goods",
      storeTagline: null,
      storeDescription: "Hand-made files",
      profilePictureUrl: null,
    });
    for (const [field, max, message] of [
      ["storeName", 100, STORE_SETTINGS_MESSAGES.nameTooLong],
      ["storeTagline", 200, STORE_SETTINGS_MESSAGES.taglineTooLong],
      ["storeDescription", 1000, STORE_SETTINGS_MESSAGES.descriptionTooLong],
    ] as const) {
      const refused = await t.request({
        method: "PUT",
        url: "/api/store-settings",
        cookie: other.cookie,
        body: { [field]: "x".repeat(max + 1) },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(message);
    }
    expect(
      (await t.request({ method: "GET", url: "/api/store-settings", cookie: other.cookie })).json().storeName,
    ).toBe("Grace's Goods");
  });

  it("sets a profile picture shown on the storefront; another seller's upload is refused", async () => {
    const picture = await upload(t, other.cookie, "profile-picture", "me.png", await pngImage(300, 300));
    const saved = await t.request({
      method: "PUT",
      url: "/api/store-settings",
      cookie: other.cookie,
      body: { storeName: "G", profilePictureUploadId: picture },
    });
    expect(saved.json().profilePictureUrl).toMatch(
      /^\/files\/public\/product-covers\/.+\/profile-[^/]+\.webp$/,
    );
    expect(((await storefront(other.userId)).json() as Storefront).seller.pictureUrl).toBe(
      saved.json().profilePictureUrl,
    );

    const stolen = await t.request({
      method: "PUT",
      url: "/api/store-settings",
      cookie: seller.cookie,
      body: { profilePictureUploadId: picture },
    });
    expect(stolen.statusCode).toBe(400);
  });

  it("needs a signed-in seller", async () => {
    expect((await t.request({ method: "GET", url: "/api/store-settings" })).statusCode).toBe(401);
    expect((await t.request({ method: "PUT", url: "/api/store-settings", body: {} })).statusCode).toBe(401);
  });
});

describe("store views and dashboard stats", () => {
  const browserAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36";
  const view = (userId: string, ip: string, userAgent = browserAgent, cookie?: string) =>
    t.request({
      method: "POST",
      url: `/api/public/stores/${userId}/views`,
      headers: { "user-agent": userAgent },
      ip,
      ...(cookie ? { cookie } : {}),
    });
  const stats = async (cookie: string) =>
    (await t.request({ method: "GET", url: "/api/dashboard/stats", cookie })).json();

  it("counts a visitor once per 30 minutes, never bots or the owner, with 30-day and all-time totals", async () => {
    const shop = await readySeller(t);
    await view(shop.userId, "203.0.113.1");
    await view(shop.userId, "203.0.113.1");
    await view(shop.userId, "203.0.113.2");
    await view(shop.userId, "203.0.113.3", "Googlebot/2.1 (+http://www.google.com/bot.html)");
    await view(shop.userId, "203.0.113.4", "Mozilla/5.0 HeadlessChrome/156.0");
    await view(shop.userId, "203.0.113.5", browserAgent, shop.cookie);
    expect(await stats(shop.cookie)).toMatchObject({ storeViews30d: 2, storeViewsAllTime: 2 });

    // Forty days pass: the old views leave the 30-day window but stay in the all-time total.
    const fortyDaysAgo = new Date(Date.now() - 40 * DAY_MS);
    await t.db
      .updateTable("store_views")
      .set({ viewed_at: fortyDaysAgo })
      .where("store_owner_id", "=", shop.userId)
      .execute();
    await t.db
      .updateTable("store_view_days")
      .set({ day: fortyDaysAgo.toISOString().slice(0, 10) })
      .where("store_owner_id", "=", shop.userId)
      .execute();
    await view(shop.userId, "203.0.113.1");
    // Views publish no event (there are too many): the kept stats show them once they expire.
    expect(await stats(shop.cookie)).toMatchObject({ storeViews30d: 2, storeViewsAllTime: 2 });
    t.clock.advance(SELLER_ANSWER_TTL_MS);
    try {
      expect(await stats(shop.cookie)).toMatchObject({ storeViews30d: 1, storeViewsAllTime: 3 });
    } finally {
      t.clock.advance(-SELLER_ANSWER_TTL_MS);
    }
  });

  it("stops recording views from one address past 60 an hour (rotating user agents cannot inflate them)", async () => {
    const shop = await readySeller(t);
    for (let i = 0; i < 65; i++) await view(shop.userId, "203.0.113.99", `${browserAgent} build/${i}`);
    expect(await stats(shop.cookie)).toMatchObject({ storeViewsAllTime: 60 });
  });

  it("reports active of total products and storage used from the database", async () => {
    const shop = await readySeller(t);
    const product = await createProduct(t, shop.cookie, {}, { cover: false });
    await createProduct(t, shop.cookie, {}, { cover: false });
    await t.db.updateTable("products").set({ is_active: false }).where("id", "=", product.id).execute();
    const result = await stats(shop.cookie);
    expect(result).toMatchObject({
      activeProducts: 1,
      totalProducts: 2,
      storageQuotaBytes: 5 * 1024 * 1024 * 1024,
    });
    expect(result.storageUsedBytes).toBe(2 * minimalPdf().length);
  });
});
