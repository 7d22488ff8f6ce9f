import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoreImport } from "../../src/contracts/store-import";
import { importedOrderId, importedProductId } from "../../src/server/features/store-import/import-ids";
import { minimalPdf } from "../../src/server/features/uploads/test-fixtures";
import { readySeller, upload } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";

const FIXTURES = path.resolve(__dirname, "../fixtures/import-formats");
const fixture = (platform: string, name: string) => readFileSync(path.join(FIXTURES, platform, name));

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let otherSeller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  t = await createTestApp({ listen: true, jobsInBackground: false });
  seller = await readySeller(t);
  otherSeller = await readySeller(t);
});
afterAll(async () => {
  await t.close();
});

const newImport = async (platform = "gumroad", cookie = seller.cookie) => {
  const response = await t.request({ method: "POST", url: "/api/store-imports", cookie, body: { platform } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as StoreImport;
};
const addFile = (importId: string, name: string, bytes: Buffer, cookie = seller.cookie) =>
  t.app.server.inject({
    method: "PUT",
    url: `/api/store-imports/${importId}/files?name=${encodeURIComponent(name)}`,
    headers: { cookie, "content-type": "text/csv" },
    payload: bytes,
  });
const view = async (importId: string, cookie = seller.cookie) => {
  const response = await t.request({ method: "GET", url: `/api/store-imports/${importId}`, cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as StoreImport;
};
const check = async (importId: string) => {
  const response = await t.request({
    method: "POST",
    url: `/api/store-imports/${importId}/check`,
    cookie: seller.cookie,
  });
  expect(response.statusCode, response.body).toBe(202);
  await t.app.jobs.runDue();
  return view(importId);
};
const run = async (importId: string, notifyBuyers: boolean) => {
  const response = await t.request({
    method: "POST",
    url: `/api/store-imports/${importId}/run`,
    cookie: seller.cookie,
    body: { notifyBuyers },
  });
  expect(response.statusCode, response.body).toBe(202);
  await t.app.jobs.runDue();
  return view(importId);
};
const attach = async (importId: string, externalId: string, uploadIds: string[]) => {
  const response = await t.request({
    method: "PUT",
    url: `/api/store-imports/${importId}/products/${encodeURIComponent(externalId)}/files`,
    cookie: seller.cookie,
    body: { uploadIds },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as StoreImport;
};
const importFilesOnDisk = async (importId: string) =>
  t.db.selectFrom("store_import_files").select("storage_key").where("import_id", "=", importId).execute();
const ordersOfSeller = (sellerId: string) =>
  t.db.selectFrom("orders").selectAll().where("seller_id", "=", sellerId).orderBy("created_at").execute();
const emailsTo = (to: string) =>
  t.db.selectFrom("outbox_emails").selectAll().where("to_address", "=", to).orderBy("id").execute();

const verify = (productId: string, key: string) =>
  t.app.server.inject({
    method: "POST",
    url: "/api/v1/licenses/verify",
    headers: { "content-type": "application/json" },
    payload: JSON.stringify({ product_id: productId, license_key: key }),
  });

describe("importing a Gumroad store", () => {
  let importId: string;

  it("refuses a file that is not an export, and keeps nothing of it", async () => {
    ({ id: importId } = await newImport());
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const refused = await addFile(importId, "sales.csv", png);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/sales\.csv/);
    expect(await importFilesOnDisk(importId)).toEqual([]);
    const empty = await addFile(importId, "empty.csv", Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe("This file is empty.");
    const check = await t.request({
      method: "POST",
      url: `/api/store-imports/${importId}/check`,
      cookie: seller.cookie,
    });
    expect(check.statusCode).toBe(400);
  });

  it("recognises the sales and audience CSVs; another seller cannot see or touch the import", async () => {
    const sales = await addFile(importId, "sales.csv", fixture("gumroad", "sales.csv"));
    expect(sales.statusCode, sales.body).toBe(201);
    expect(sales.json().reader).toMatch(/Gumroad/);
    const audience = await addFile(importId, "subscribers.csv", fixture("gumroad", "subscribers.csv"));
    expect(audience.statusCode, audience.body).toBe(201);
    for (const request of [
      t.request({ method: "GET", url: `/api/store-imports/${importId}`, cookie: otherSeller.cookie }),
      t.request({ method: "POST", url: `/api/store-imports/${importId}/check`, cookie: otherSeller.cookie }),
      addFile(importId, "sales.csv", fixture("gumroad", "sales.csv"), otherSeller.cookie),
    ]) {
      expect((await request).statusCode).toBe(404);
    }
  });

  it("dry run: what will be created, the rows it cannot import, and nothing written", async () => {
    const checked = await check(importId);
    expect(checked.status).toBe("checked");
    const report = checked.report!;
    const titles = report.products.map((product) => product.title);
    expect(titles).toEqual(expect.arrayContaining(["Pixel Icons Pack", "Lightroom Presets"]));
    const icons = report.products.find((product) => product.externalId === "pxicn")!;
    expect(icons).toMatchObject({
      status: "needs-files",
      priceCents: 2500,
      currency: "usd",
      orders: 3,
      issueLicenseKeys: true,
    });
    expect(report.counts.orders.new).toBeGreaterThanOrEqual(6);
    expect(report.counts.orders.existing).toBe(0);
    expect(report.counts.refundedOrders).toBe(1);
    // Three keys, each on its sale and again with its activation count: counted once each.
    expect(report.counts.licenseKeys).toBe(3);
    expect(report.files.find((file) => file.name === "sales.csv")!.notes.join(" ")).toMatch(/Totals/);
    expect(await ordersOfSeller(seller.userId)).toEqual([]);
  });

  it("runs: products with their files, past orders, keys that verify, a library for each buyer, opted-out buyers left alone", async () => {
    for (const externalId of ["pxicn", "lrpst"]) {
      const uploadId = await upload(t, seller.cookie, "product-file", `${externalId}.pdf`, minimalPdf(300));
      const attached = await attach(importId, externalId, [uploadId]);
      expect(attached.report!.products.find((product) => product.externalId === externalId)!.status).toBe(
        "new",
      );
    }
    const done = await run(importId, true);
    expect(done.status, done.error ?? "").toBe("imported");
    expect(done.result).toMatchObject({ products: 2, orders: 6, licenseKeys: 3, unsubscribes: 1 });
    expect(done.progress.done).toBe(done.progress.total);

    const iconsId = importedProductId(seller.userId, "gumroad", "pxicn");
    const product = await t.db
      .selectFrom("products")
      .selectAll()
      .where("id", "=", iconsId)
      .executeTakeFirstOrThrow();
    expect(product).toMatchObject({ title: "Pixel Icons Pack", price_cents: 2500, issue_license_keys: true });

    const orders = await ordersOfSeller(seller.userId);
    const first = orders.find(
      (order) => order.id === importedOrderId(seller.userId, "gumroad", "Qk3vX9pL2mN8rT5wY1zA0g=="),
    )!;
    expect(first).toMatchObject({
      customer_email: "buyer1@example.com",
      amount_cents: 2500,
      currency: "usd",
      status: "completed",
      imported_from: "gumroad",
      product_id: iconsId,
      buyer_name: "Ana Souza",
    });
    expect(first.created_at.toISOString()).toBe("2025-11-03T14:22:05.000Z");
    // A buyer who paid in euros: the order says so, and it settled in the US dollars Gumroad paid out.
    expect(orders.find((order) => order.customer_email === "buyer5@example.com")).toMatchObject({
      amount_cents: 2560,
      currency: "eur",
      settlement_cents: 2975,
      settlement_currency: "usd",
    });
    const refunded = orders.find((order) => order.customer_email === "buyer3@example.com")!;
    expect(refunded.status).toBe("refunded");

    // Customers roll up the imported orders: what they bought and kept (a refund counts as an order, not as money).
    const customers = await t.db
      .selectFrom("customers")
      .selectAll()
      .where("seller_id", "=", seller.userId)
      .orderBy("email")
      .execute();
    expect(customers.map((customer) => customer.email)).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => `buyer${n}@example.com`),
    );
    expect(customers[0]).toMatchObject({
      orders_count: 1,
      completed_count: 1,
      product_titles: ["Pixel Icons Pack"],
    });
    expect(Number(customers[0]!.total_cents)).toBe(2500);
    expect(customers[2]).toMatchObject({ orders_count: 1, completed_count: 0 });
    expect(Number(customers[2]!.total_cents)).toBe(0);
    const counted = await t.db
      .selectFrom("customer_counts")
      .selectAll()
      .where("seller_id", "=", seller.userId)
      .executeTakeFirstOrThrow();
    expect(counted.customers).toBe(6);
    const totals = await t.db
      .selectFrom("seller_sales_totals")
      .selectAll()
      .where("seller_id", "=", seller.userId)
      .executeTakeFirstOrThrow();
    expect(totals).toMatchObject({ orders_count: 6, units_sold: 5 });

    // The platform's key verifies here as before; a refunded order's does not.
    const verified = await verify(iconsId, "1A2B3C4D-5E6F7A8B-9C0D1E2F-3A4B5C6D");
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().purchase.email).toBe("buyer1@example.com");
    expect((await verify(iconsId, "2B3C4D5E-6F7A8B9C-0D1E2F3A-4B5C6D7E")).statusCode).not.toBe(200);

    // The sales table says where each sale was made.
    const sales = await t.request({ method: "GET", url: "/api/orders", cookie: seller.cookie });
    expect(
      sales.json().sales.every((sale: { importedFrom: string }) => sale.importedFrom === "gumroad"),
    ).toBe(true);

    // Buyers were told (the creator opted in), with their library, which gives the file.
    await t.app.jobs.runDue();
    expect((await view(importId)).result!.buyersEmailed).toBe(5);
    const [moved] = await emailsTo("buyer1@example.com");
    expect(moved!.subject).toMatch(/have moved/);
    const libraryUrl = new URL(moved!.text.match(/http:\/\/localhost:3000\/library\?token=\S+/)![0]);
    const library = await t.request({
      method: "GET",
      url: `/api/library?token=${encodeURIComponent(libraryUrl.searchParams.get("token")!)}`,
    });
    expect(library.statusCode, library.body).toBe(200);
    const purchase = library
      .json()
      .purchases.find((entry: { productTitle: string }) => entry.productTitle === "Pixel Icons Pack");
    expect(purchase.files).toHaveLength(1);
    const token = (purchase.downloadPath as string).replace("/download/", "");
    const download = await t.request({ method: "POST", url: `/api/downloads/${token}` });
    expect(download.statusCode, download.body).toBe(200);
    // Refunded buyers and buyers who asked not to be contacted get nothing.
    expect(await emailsTo("buyer3@example.com")).toEqual([]);
    expect(await emailsTo("buyer7@example.com")).toEqual([]);
    const unsubscribed = await t.db
      .selectFrom("email_unsubscribes")
      .select("email")
      .where("seller_id", "=", seller.userId)
      .execute();
    expect(unsubscribed.map((row) => row.email)).toContain("buyer7@example.com");
  });

  it("a run cut short after creating a product but before recording it resumes without making it twice", async () => {
    const before = (await ordersOfSeller(seller.userId)).length;
    // As if the instance died between createProduct's commit and the link's: the link is gone, the run restarts.
    await t.db
      .deleteFrom("import_links")
      .where("import_id", "=", importId)
      .where("kind", "=", "product")
      .execute();
    await t.db
      .updateTable("store_imports")
      .set({ status: "importing", cursor: null, result: null })
      .where("id", "=", importId)
      .execute();
    const { enqueueJob } = await import("../../src/server/jobs/job-queue");
    const { runImportJob } = await import("../../src/server/features/store-import/import-lifecycle");
    await enqueueJob(t.db, runImportJob, { importId });
    await t.app.jobs.runDue();
    const resumed = await view(importId);
    expect(resumed.status).toBe("imported");
    expect(resumed.result).toMatchObject({ products: 2, orders: 0, alreadyImported: 6 });
    const products = await t.db
      .selectFrom("products")
      .select("id")
      .where("user_id", "=", seller.userId)
      .execute();
    expect(products).toHaveLength(2);
    expect((await ordersOfSeller(seller.userId)).length).toBe(before);
  });

  it("run twice, creates nothing twice", async () => {
    const before = (await ordersOfSeller(seller.userId)).length;
    const again = await newImport();
    expect((await addFile(again.id, "sales.csv", fixture("gumroad", "sales.csv"))).statusCode).toBe(201);
    const checked = await check(again.id);
    expect(checked.report!.counts.orders.new).toBe(0);
    expect(checked.report!.counts.orders.existing).toBe(before);
    const statuses = Object.fromEntries(
      checked.report!.products.map((product) => [product.externalId, product.status]),
    );
    expect(statuses).toMatchObject({ pxicn: "imported", lrpst: "imported" });
    const done = await run(again.id, false);
    expect(done.status).toBe("imported");
    expect(done.result!.orders).toBe(0);
    expect((await ordersOfSeller(seller.userId)).length).toBe(before);
    const products = await t.db
      .selectFrom("products")
      .select("id")
      .where("user_id", "=", seller.userId)
      .execute();
    expect(products).toHaveLength(2);
  });
});

/** Every sample export of a platform the readers know, through the dry run and the run, into a fresh store. */
describe.each([
  {
    platform: "lemonsqueezy",
    files: [
      "api-products.json",
      "api-orders.json",
      "api-license-keys.json",
      "api-subscriptions-include-variant.json",
      "subscribers-export.csv",
    ],
  },
  { platform: "payhip", keys: false, files: ["license-verify-responses.json", "webhook-events.json"] },
  {
    platform: "polar",
    files: [
      "orders-all-columns.csv",
      "customers.csv",
      "subscriptions-all-columns.csv",
      "api-license-keys.json",
    ],
  },
])("importing a $platform store from its sample exports", ({ platform, files, keys: issuesKeys }) => {
  it("creates what the dry run said, every order in a library, and nothing twice", async () => {
    const store = await readySeller(t);
    const imported = await newImport(platform, store.cookie);
    for (const name of files) {
      const added = await addFile(imported.id, name, fixture(platform, name), store.cookie);
      expect(added.statusCode, `${name}: ${added.body}`).toBe(201);
    }
    const checkResponse = await t.request({
      method: "POST",
      url: `/api/store-imports/${imported.id}/check`,
      cookie: store.cookie,
    });
    expect(checkResponse.statusCode, checkResponse.body).toBe(202);
    await t.app.jobs.runDue();
    const checked = await view(imported.id, store.cookie);
    expect(checked.status, checked.error ?? "").toBe("checked");
    const report = checked.report!;
    expect(report.counts.orders.new).toBeGreaterThan(0);
    const sellable = report.products.filter((product) => product.status === "needs-files");
    for (const product of sellable) {
      const uploadId = await upload(t, store.cookie, "product-file", "file.pdf", minimalPdf(400));
      const response = await t.request({
        method: "PUT",
        url: `/api/store-imports/${imported.id}/products/${encodeURIComponent(product.externalId)}/files`,
        cookie: store.cookie,
        body: { uploadIds: [uploadId] },
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    const runResponse = await t.request({
      method: "POST",
      url: `/api/store-imports/${imported.id}/run`,
      cookie: store.cookie,
      body: { notifyBuyers: false },
    });
    expect(runResponse.statusCode, runResponse.body).toBe(202);
    await t.app.jobs.runDue();
    const done = await view(imported.id, store.cookie);
    expect(done.status, done.error ?? "").toBe("imported");
    const orders = await ordersOfSeller(store.userId);
    const ordersOfImportedProducts = report.products
      .filter((product) => product.status !== "other-currency")
      .reduce((sum, product) => sum + product.orders, 0);
    expect(orders).toHaveLength(done.result!.orders);
    expect(done.result!.orders).toBe(ordersOfImportedProducts);
    expect(orders.every((order) => order.imported_from === platform)).toBe(true);
    // Keys the platform issued verify here as before.
    const keys = await t.db
      .selectFrom("license_keys")
      .innerJoin("orders", "orders.id", "license_keys.order_id")
      .select(["license_keys.key", "license_keys.product_id", "license_keys.uses"])
      .where("license_keys.seller_id", "=", store.userId)
      .where("orders.status", "=", "completed")
      .where("license_keys.disabled_at", "is", null)
      .execute();
    for (const key of keys) {
      const verified = await verify(key.product_id, key.key);
      expect(verified.statusCode, `${key.key}: ${verified.body}`).toBe(200);
      expect(verified.json().uses).toBe(key.uses + 1);
    }
    if (issuesKeys) expect(keys.length).toBeGreaterThan(0);
    expect(done.result!.licenseKeys).toBe(
      await t.db
        .selectFrom("license_keys")
        .select("order_id")
        .where("seller_id", "=", store.userId)
        .execute()
        .then((rows) => rows.length),
    );

    // Subscriptions that cannot move are listed for the creator to invite back; only to this store's owner.
    const members = await t.request({
      method: "GET",
      url: `/api/store-imports/${imported.id}/resubscribes.csv`,
      cookie: store.cookie,
    });
    expect(members.statusCode).toBe(200);
    expect(members.body.trim().split("\r\n")).toHaveLength(done.result!.resubscribes + 1);
    const stranger = await t.request({
      method: "GET",
      url: `/api/store-imports/${imported.id}/resubscribes.csv`,
      cookie: seller.cookie,
    });
    expect(stranger.statusCode).toBe(404);

    // The same exports again: the dry run finds every order already here, and the run adds nothing.
    const again = await newImport(platform, store.cookie);
    for (const name of files) await addFile(again.id, name, fixture(platform, name), store.cookie);
    await t.request({ method: "POST", url: `/api/store-imports/${again.id}/check`, cookie: store.cookie });
    await t.app.jobs.runDue();
    const rechecked = await view(again.id, store.cookie);
    // (Orders of products not created, priced in another currency, stay new until they can be.)
    expect(rechecked.report!.counts.orders).toEqual({
      new: report.counts.orders.new - orders.length,
      existing: orders.length,
    });
  });
});

describe("Payhip licence verify responses", () => {
  const sale = (id: string, email: string, key: string) => ({
    id,
    email,
    currency: "USD",
    price: 2000,
    items: [
      { product_id: "1", product_name: "Key Plugin", product_key: "KeyP", quantity: "1", license_key: key },
    ],
    unconsented_from_emails: false,
    date: 1762179725,
    type: "paid",
    signature: "x",
  });
  const verified = (key: string, email: string, enabled: boolean, uses: number) => ({
    data: {
      enabled,
      product_link: "KeyP",
      license_key: key,
      buyer_email: email,
      uses,
      date: "2025-11-04T08:01:59+00:00",
      // A field Payhip may add: reported, never read.
      expires_at: null,
    },
  });

  it("give the imported keys their use counts and state, even uploaded before the sales", async () => {
    const store = await readySeller(t);
    const imported = await newImport("payhip", store.cookie);
    const responses = {
      "AAAAA-11111-BBBBB-22222": verified("AAAAA-11111-BBBBB-22222", "a@example.com", true, 5),
      "CCCCC-33333-DDDDD-44444": verified("CCCCC-33333-DDDDD-44444", "b@example.com", false, 2),
      "EEEEE-55555-FFFFF-66666": verified("EEEEE-55555-FFFFF-66666", "c@example.com", false, 1),
      "NOT-A-KEY": null,
    };
    const events = [
      sale("T1", "a@example.com", "AAAAA-11111-BBBBB-22222"),
      sale("T2", "b@example.com", "CCCCC-33333-DDDDD-44444"),
      sale("T3", "c@example.com", "EEEEE-55555-FFFFF-66666"),
      { ...sale("T3", "c@example.com", "EEEEE-55555-FFFFF-66666"), type: "refunded", amount_refunded: 2000 },
    ];
    const keysFile = await addFile(
      imported.id,
      "verify.json",
      Buffer.from(JSON.stringify(responses)),
      store.cookie,
    );
    expect(keysFile.statusCode, keysFile.body).toBe(201);
    expect(keysFile.json().reader).toBe("Payhip licence verify responses");
    const salesFile = await addFile(
      imported.id,
      "events.json",
      Buffer.from(JSON.stringify(events)),
      store.cookie,
    );
    expect(salesFile.statusCode, salesFile.body).toBe(201);

    await t.request({ method: "POST", url: `/api/store-imports/${imported.id}/check`, cookie: store.cookie });
    await t.app.jobs.runDue();
    const checked = await view(imported.id, store.cookie);
    expect(checked.status, checked.error ?? "").toBe("checked");
    const keysRead = checked.report!.files.find((file) => file.name === "verify.json")!;
    expect(keysRead.unknownColumns).toEqual(["data.expires_at"]);
    expect(keysRead.notes.join(" ")).toMatch(/did not verify/);
    expect(checked.report!.problemsTotal).toBe(0);

    const uploadId = await upload(t, store.cookie, "product-file", "plugin.pdf", minimalPdf(100));
    const attachResponse = await t.request({
      method: "PUT",
      url: `/api/store-imports/${imported.id}/products/KeyP/files`,
      cookie: store.cookie,
      body: { uploadIds: [uploadId] },
    });
    expect(attachResponse.statusCode, attachResponse.body).toBe(200);
    await t.request({
      method: "POST",
      url: `/api/store-imports/${imported.id}/run`,
      cookie: store.cookie,
      body: { notifyBuyers: false },
    });
    await t.app.jobs.runDue();
    const done = await view(imported.id, store.cookie);
    expect(done.status, done.error ?? "").toBe("imported");
    expect(done.result).toMatchObject({ orders: 3, licenseKeys: 2 });

    const keys = await t.db
      .selectFrom("license_keys")
      .innerJoin("orders", "orders.id", "license_keys.order_id")
      .select(["orders.customer_email", "license_keys.key", "license_keys.uses", "license_keys.disabled_at"])
      .where("license_keys.seller_id", "=", store.userId)
      .orderBy("orders.customer_email")
      .execute();
    expect(keys.map((key) => [key.customer_email, key.key, key.uses, key.disabled_at !== null])).toEqual([
      ["a@example.com", "AAAAA-11111-BBBBB-22222", 5, false],
      ["b@example.com", "CCCCC-33333-DDDDD-44444", 2, true],
    ]);
    // The key verifies here as on Payhip, counting on from Payhip's count; the disabled one does not.
    const productId = importedProductId(store.userId, "payhip", "KeyP");
    const ok = await verify(productId, "AAAAA-11111-BBBBB-22222");
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().uses).toBe(6);
    expect((await verify(productId, "CCCCC-33333-DDDDD-44444")).statusCode).not.toBe(200);
  });
});

describe("the export files of an import", () => {
  it("take the next place after one is removed (a file added then has its own position)", async () => {
    const { id } = await newImport();
    const sales = await addFile(id, "sales.csv", fixture("gumroad", "sales.csv"));
    expect(sales.statusCode, sales.body).toBe(201);
    const audience = await addFile(id, "subscribers.csv", fixture("gumroad", "subscribers.csv"));
    expect(audience.statusCode, audience.body).toBe(201);
    const removed = await t.request({
      method: "DELETE",
      url: `/api/store-imports/${id}/files/${sales.json().id}`,
      cookie: seller.cookie,
    });
    expect(removed.statusCode).toBe(204);
    const again = await addFile(id, "sales.csv", fixture("gumroad", "sales.csv"));
    expect(again.statusCode, again.body).toBe(201);
    const positions = await t.db
      .selectFrom("store_import_files")
      .select(["file_name", "position"])
      .where("import_id", "=", id)
      .orderBy("position")
      .execute();
    expect(positions).toEqual([
      { file_name: "subscribers.csv", position: 1 },
      { file_name: "sales.csv", position: 2 },
    ]);
  });
});
