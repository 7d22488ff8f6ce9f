import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArchiveRecordKind } from "../../src/contracts/store-archive";
import { ARCHIVE_RECORD_KINDS } from "../../src/contracts/store-archive";
import type { StoreImport } from "../../src/contracts/store-import";
import { unsubscribe } from "../../src/server/features/audience/unsubscribe";
import { readStore } from "../../src/server/features/store-export/readers/store";
import { RECORD_READERS } from "../../src/server/features/store-export/record-readers";
import { minimalPdf } from "../../src/server/features/uploads/test-fixtures";
import { buyProduct, createProduct, readySeller, upload } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { zipEntries } from "./support/zip-entries";

// "No lock-in" (docs/store-import.md, "Importing a Flatfee archive"): a store on instance A is exported,
// its archive imported by a fresh seller on instance B, and both stores are compared field by field.
let a: TestApp;
let b: TestApp;
type Seller = Awaited<ReturnType<typeof readySeller>>;
let sellerA: Seller;
let sellerB: Seller;
beforeAll(async () => {
  a = await createTestApp({ listen: true, jobsInBackground: false });
  b = await createTestApp({ listen: true, jobsInBackground: false });
  sellerA = await readySeller(a);
  sellerB = await readySeller(b);
}, 180_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
});

/**
 * What must differ between the stores, every field named: nothing else is left out of the comparison.
 * - store.id (the seller's id) and store.createdAt (when each account was made);
 * - orders' stripe (account, checkout session: an imported order's session is ours, `imp_…`, payment
 *   intent) and downloads (a fresh download window from the import, and its counts start again);
 * - webhooks' id (a new endpoint, with a new secret the archive never held).
 */
const EXCLUDED = {
  store: ["id", "createdAt"],
  orders: ["stripe", "downloads"],
  webhooks: ["id"],
} as const;

const omit = (record: Record<string, unknown>, fields: readonly string[]) =>
  Object.fromEntries(Object.entries(record).filter(([field]) => !fields.includes(field)));

async function recordsOf(t: TestApp, sellerId: string, kind: ArchiveRecordKind) {
  const records: Record<string, unknown>[] = [];
  const read = RECORD_READERS[kind] as (
    db: TestApp["db"],
    sellerId: string,
  ) => AsyncGenerator<{ records: unknown[] }>;
  for await (const page of read(t.db, sellerId)) records.push(...(page.records as Record<string, unknown>[]));
  const excluded = (EXCLUDED as Record<string, readonly string[]>)[kind] ?? [];
  return records.map((record) => omit(record, excluded));
}

const newImport = async (cookie = sellerB.cookie) => {
  const response = await b.request({
    method: "POST",
    url: "/api/store-imports",
    cookie,
    body: { platform: "flatfee" },
  });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as StoreImport).id;
};
const addFile = (importId: string, name: string, bytes: Buffer) =>
  b.app.server.inject({
    method: "PUT",
    url: `/api/store-imports/${importId}/files?name=${encodeURIComponent(name)}`,
    headers: { cookie: sellerB.cookie, "content-type": "application/zip" },
    payload: bytes,
  });
const view = async (importId: string) =>
  (
    await b.request({ method: "GET", url: `/api/store-imports/${importId}`, cookie: sellerB.cookie })
  ).json() as StoreImport;
async function importArchive(bytes: Buffer) {
  const importId = await newImport();
  const added = await addFile(importId, "flatfee-store.zip", bytes);
  expect(added.statusCode, added.body).toBe(201);
  expect(added.json().reader).toBe("Flatfee store archive");
  const check = await b.request({
    method: "POST",
    url: `/api/store-imports/${importId}/check`,
    cookie: sellerB.cookie,
  });
  expect(check.statusCode, check.body).toBe(202);
  await b.app.jobs.runDue();
  const checked = await view(importId);
  expect(checked.status, checked.error ?? "").toBe("checked");
  const run = await b.request({
    method: "POST",
    url: `/api/store-imports/${importId}/run`,
    cookie: sellerB.cookie,
    body: { notifyBuyers: true },
  });
  expect(run.statusCode, run.body).toBe(202);
  await b.app.jobs.runDue();
  await b.app.jobs.runDue();
  return { checked, done: await view(importId) };
}

const verify = (t: TestApp, productId: string, key: string) =>
  t.request({
    method: "POST",
    url: "/api/v1/licenses/verify",
    headers: {},
    body: { product_id: productId, license_key: key },
  });

describe("a Flatfee store moved to another instance", () => {
  const fixture = {} as {
    guide: string;
    pack: string;
    packFile: Buffer;
    buyers: string[];
    orders: string[];
    key: string;
    archive: Buffer;
  };

  beforeAll(async () => {
    const cookie = sellerA.cookie;
    const settings = await a.request({
      method: "PUT",
      url: "/api/store-settings",
      cookie,
      body: { storeName: "Type Shop", storeTagline: "Fonts" },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    fixture.guide = (
      await createProduct(a, cookie, {
        title: "The Guide",
        issueLicenseKeys: true,
        prices: [{ currency: "eur", price: "18" }],
      })
    ).id;
    fixture.packFile = minimalPdf(777);
    const packUpload = await upload(a, cookie, "product-file", "pack.pdf", fixture.packFile);
    const pack = await a.request({
      method: "POST",
      url: "/api/products",
      cookie,
      body: {
        title: "The Pack",
        price: "9.00",
        inventoryType: "unlimited",
        files: [{ uploadId: packUpload, name: "The Pack.pdf" }],
      },
    });
    expect(pack.statusCode, pack.body).toBe(201);
    fixture.pack = pack.json().id;
    const code = await a.request({
      method: "POST",
      url: "/api/discount-codes",
      cookie,
      body: { code: "SPRING", kind: "percent", value: 10, appliesTo: "chosen", productIds: [fixture.guide] },
    });
    expect(code.statusCode, code.body).toBe(201);
    fixture.buyers = ["first", "second", "third"].map((name) => `${name}-${Date.now()}@example.com`);
    fixture.orders = [
      await buyProduct(a, fixture.guide, fixture.buyers[0]!),
      await buyProduct(a, fixture.pack, fixture.buyers[1]!),
      await buyProduct(a, fixture.pack, fixture.buyers[2]!),
    ];
    const refund = await a.request({
      method: "POST",
      url: `/api/orders/${fixture.orders[2]}/refund`,
      cookie,
    });
    expect(refund.statusCode, refund.body).toBe(204);
    fixture.key = (
      await a.db
        .selectFrom("license_keys")
        .select("key")
        .where("order_id", "=", fixture.orders[0]!)
        .executeTakeFirstOrThrow()
    ).key;
    for (let use = 0; use < 2; use++)
      expect((await verify(a, fixture.guide, fixture.key)).statusCode).toBe(200);
    await unsubscribe(a.db, { sellerId: sellerA.userId, email: "never-bought@example.com" });
    const hook = await a.request({
      method: "POST",
      url: "/api/webhook-endpoints",
      cookie,
      body: { url: "https://example.com/hooks", events: ["sale.completed"] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    await a.app.jobs.runDue();

    const started = await a.request({ method: "POST", url: "/api/store-export", cookie });
    expect(started.statusCode, started.body).toBe(202);
    await a.app.jobs.runDue();
    const state = (await a.request({ method: "GET", url: "/api/store-export", cookie })).json();
    expect(state.latest.status).toBe("ready");
    const archive = await a.request({ method: "GET", url: new URL(state.latest.downloadUrl).pathname });
    expect(archive.statusCode).toBe(200);
    fixture.archive = archive.rawPayload;
  }, 180_000);

  it("refuses a ZIP that is not an archive, and a truncated archive, keeping nothing", async () => {
    const importId = await newImport();
    const files = await zipEntries(fixture.archive);
    expect(Object.keys(files)).toContain("manifest.json");
    // Any ZIP without a manifest: this one is the archive's own analytics file zipped alone.
    const yazl = (await import("yazl")).default;
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from("hello"), "notes.txt");
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const notArchive = await addFile(importId, "photos.zip", Buffer.concat(chunks));
    expect(notArchive.statusCode).toBe(400);
    expect(notArchive.json().message).toMatch(/photos\.zip is not a Flatfee store archive/);
    const truncated = await addFile(
      importId,
      "cut.zip",
      fixture.archive.subarray(0, fixture.archive.length - 200),
    );
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json().message).toMatch(/cut\.zip is not a ZIP file we can read/);
    const text = await addFile(importId, "sales.csv", Buffer.from("a,b\n1,2\n"));
    expect(text.statusCode).toBe(400);
    expect(
      await b.db.selectFrom("store_import_files").select("id").where("import_id", "=", importId).execute(),
    ).toEqual([]);
    expect(
      await b.db.selectFrom("products").select("id").where("user_id", "=", sellerB.userId).execute(),
    ).toEqual([]);
    await b.request({ method: "DELETE", url: `/api/store-imports/${importId}`, cookie: sellerB.cookie });
  });

  it("imports everything: both stores are equal field by field, ids kept", async () => {
    const { checked, done } = await importArchive(fixture.archive);
    expect(checked.report!.products.map((product) => [product.externalId, product.status])).toEqual(
      expect.arrayContaining([
        [fixture.guide, "new"],
        [fixture.pack, "new"],
      ]),
    );
    expect(checked.report!.counts.orders).toEqual({ new: 3, existing: 0 });
    expect(checked.report!.counts.refundedOrders).toBe(1);
    expect(checked.report!.problemsTotal).toBe(0);
    expect(done.status, done.error ?? "").toBe("imported");
    expect(done.result).toMatchObject({ products: 2, orders: 3, licenseKeys: 1, unsubscribes: 1 });

    const storeA = omit((await readStore(a.db, sellerA.userId)).record, EXCLUDED.store);
    const storeB = omit((await readStore(b.db, sellerB.userId)).record, EXCLUDED.store);
    expect(storeB).toEqual(storeA);
    for (const kind of ARCHIVE_RECORD_KINDS) {
      const recordsA = await recordsOf(a, sellerA.userId, kind);
      const recordsB = await recordsOf(b, sellerB.userId, kind);
      expect(recordsB, kind).toEqual(recordsA);
    }
    for (const kind of [
      "products",
      "orders",
      "license-keys",
      "customers",
      "discount-codes",
      "webhooks",
      "invoices",
    ] as const)
      expect((await recordsOf(a, sellerA.userId, kind)).length, kind).toBeGreaterThan(0);
    // The seller's totals and customer counts follow the restored orders.
    const totals = async (t: TestApp, sellerId: string) => ({
      sales: await t.db
        .selectFrom("seller_sales_totals")
        .select(["orders_count", "units_sold", "revenue_cents"])
        .where("seller_id", "=", sellerId)
        .executeTakeFirst(),
      customers: await t.db
        .selectFrom("customer_counts")
        .select("customers")
        .where("seller_id", "=", sellerId)
        .executeTakeFirst(),
    });
    expect(await totals(b, sellerB.userId)).toEqual(await totals(a, sellerA.userId));
    // The webhook has a new secret on B.
    const secrets = await b.db
      .selectFrom("webhook_endpoints")
      .select("secret")
      .where("seller_id", "=", sellerB.userId)
      .execute();
    expect(secrets).toHaveLength(1);
    expect(secrets[0]!.secret).toMatch(/^whsec_/);
  });

  it("a buyer of A is emailed on B, downloads their file and verifies their key as before", async () => {
    const emails = await b.db
      .selectFrom("outbox_emails")
      .selectAll()
      .where("to_address", "=", fixture.buyers[1]!)
      .execute();
    expect(emails).toHaveLength(1);
    expect(
      await b.db
        .selectFrom("outbox_emails")
        .select("id")
        .where("to_address", "=", fixture.buyers[2]!)
        .execute(),
    ).toEqual([]);
    const token = new URL(
      emails[0]!.text.match(/http:\/\/localhost:3000\/library\?token=\S+/)![0],
    ).searchParams.get("token")!;
    const library = await b.request({
      method: "GET",
      url: `/api/library?token=${encodeURIComponent(token)}`,
    });
    expect(library.statusCode, library.body).toBe(200);
    const purchase = library
      .json()
      .purchases.find((entry: { productTitle: string }) => entry.productTitle === "The Pack");
    const downloadToken = (purchase.downloadPath as string).replace("/download/", "");
    const started = await b.request({ method: "POST", url: `/api/downloads/${downloadToken}` });
    expect(started.statusCode, started.body).toBe(200);
    const fileUrl = new URL(started.json().url, "http://localhost:3000");
    const file = await b.request({ method: "GET", url: `${fileUrl.pathname}${fileUrl.search}` });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(fixture.packFile)).toBe(true);

    const verified = await verify(b, fixture.guide, fixture.key);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().uses).toBe(3);
  });

  it("importing the same archive again creates nothing twice", async () => {
    const count = async () => ({
      products: (
        await b.db.selectFrom("products").select("id").where("user_id", "=", sellerB.userId).execute()
      ).length,
      orders: (await b.db.selectFrom("orders").select("id").where("seller_id", "=", sellerB.userId).execute())
        .length,
      codes: (
        await b.db.selectFrom("discount_codes").select("id").where("seller_id", "=", sellerB.userId).execute()
      ).length,
      webhooks: (
        await b.db
          .selectFrom("webhook_endpoints")
          .select("id")
          .where("seller_id", "=", sellerB.userId)
          .execute()
      ).length,
      invoices: (
        await b.db.selectFrom("invoices").select("id").where("seller_id", "=", sellerB.userId).execute()
      ).length,
      uploads: (
        await b.db.selectFrom("uploads").select("id").where("seller_id", "=", sellerB.userId).execute()
      ).length,
    });
    const before = await count();
    const { checked, done } = await importArchive(fixture.archive);
    expect(checked.report!.counts.orders).toEqual({ new: 0, existing: 3 });
    expect(checked.report!.products.every((product) => product.status === "imported")).toBe(true);
    expect(done.status, done.error ?? "").toBe("imported");
    expect(done.result).toMatchObject({ products: 0, orders: 0, licenseKeys: 0 });
    expect(await count()).toEqual(before);
    // The key kept the use counted on B.
    expect((await verify(b, fixture.guide, fixture.key)).json().uses).toBe(4);
  });
});
