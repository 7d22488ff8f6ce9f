import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENCY_MESSAGES } from "../../src/contracts/currencies";
import type { ArchiveProduct, ArchiveRecordKind } from "../../src/contracts/store-archive";
import { ARCHIVE_RECORD_FILES, ARCHIVE_RECORD_KINDS, MANIFEST_PATH } from "../../src/contracts/store-archive";
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

const newImport = async (cookie: string) => {
  const response = await b.request({
    method: "POST",
    url: "/api/store-imports",
    cookie,
    body: { platform: "flatfee" },
  });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as StoreImport).id;
};
const addFile = (importId: string, name: string, bytes: Buffer, cookie = sellerB.cookie) =>
  b.app.server.inject({
    method: "PUT",
    url: `/api/store-imports/${importId}/files?name=${encodeURIComponent(name)}`,
    headers: { cookie, "content-type": "application/zip" },
    payload: bytes,
  });
const view = async (importId: string, cookie = sellerB.cookie) =>
  (await b.request({ method: "GET", url: `/api/store-imports/${importId}`, cookie })).json() as StoreImport;
/** Adds the archive to a new import of `cookie`'s store on B and runs its dry run. */
async function checkArchive(bytes: Buffer, cookie = sellerB.cookie) {
  const importId = await newImport(cookie);
  const added = await addFile(importId, "flatfee-store.zip", bytes, cookie);
  expect(added.statusCode, added.body).toBe(201);
  expect(added.json().reader).toBe("Flatfee store archive");
  const check = await b.request({ method: "POST", url: `/api/store-imports/${importId}/check`, cookie });
  expect(check.statusCode, check.body).toBe(202);
  await b.app.jobs.runDue();
  const checked = await view(importId, cookie);
  expect(checked.status, checked.error ?? "").toBe("checked");
  return { importId, checked };
}
async function importArchive(bytes: Buffer, cookie = sellerB.cookie) {
  const { importId, checked } = await checkArchive(bytes, cookie);
  const run = await b.request({
    method: "POST",
    url: `/api/store-imports/${importId}/run`,
    cookie,
    body: { notifyBuyers: true },
  });
  expect(run.statusCode, run.body).toBe(202);
  await b.app.jobs.runDue();
  await b.app.jobs.runDue();
  return { checked, done: await view(importId, cookie) };
}

/**
 * The archive with its products edited (as another or an older exporter could have written them), its
 * manifest listing the new sizes and SHA-256s: an archive the importer accepts as whole.
 */
async function editedArchive(archive: Buffer, edit: (product: Record<string, unknown>) => void) {
  const files = await zipEntries(archive);
  const productsPath = ARCHIVE_RECORD_FILES.products.path;
  const products = files[productsPath]!.toString("utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  for (const product of products) edit(product);
  files[productsPath] = Buffer.from(products.map((product) => `${JSON.stringify(product)}\n`).join(""));
  const manifest = JSON.parse(files[MANIFEST_PATH]!.toString("utf8"));
  manifest.files = manifest.files.map((entry: { path: string }) => ({
    path: entry.path,
    sizeBytes: files[entry.path]!.length,
    sha256: createHash("sha256").update(files[entry.path]!).digest("hex"),
  }));
  const yazl = (await import("yazl")).default;
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of Object.entries(files)) if (name !== MANIFEST_PATH) zip.addBuffer(bytes, name);
  zip.addBuffer(Buffer.from(JSON.stringify(manifest)), MANIFEST_PATH);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The other-currency prices of a store's tiers, by tier name. */
const tierPricesOf = (t: TestApp, sellerId: string) =>
  t.db
    .selectFrom("membership_tier_currency_prices")
    .innerJoin("membership_tiers", "membership_tiers.id", "membership_tier_currency_prices.tier_id")
    .select([
      "membership_tiers.name",
      "membership_tier_currency_prices.currency",
      "membership_tier_currency_prices.monthly_cents",
      "membership_tier_currency_prices.yearly_cents",
    ])
    .where("membership_tier_currency_prices.seller_id", "=", sellerId)
    .orderBy("membership_tiers.name")
    .orderBy("membership_tier_currency_prices.currency")
    .execute();
const TIER_PRICES = [
  { name: "Fan", currency: "gbp", monthly_cents: 400, yearly_cents: null },
  { name: "Patron", currency: "eur", monthly_cents: 1400, yearly_cents: 14000 },
];

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
    club: string;
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
    // A membership whose tiers have prices in other currencies: EUR a month and a year on the tier
    // offered yearly, GBP a month on the one offered monthly only.
    const clubUpload = await upload(a, cookie, "product-file", "lesson.pdf", minimalPdf(778));
    const club = await a.request({
      method: "POST",
      url: "/api/products",
      cookie,
      body: {
        kind: "membership",
        title: "The Club",
        files: [{ uploadId: clubUpload }],
        tiers: [
          {
            name: "Fan",
            monthlyPrice: "5",
            files: [{ uploadId: clubUpload }],
            prices: [{ currency: "gbp", monthly: "4" }],
          },
          {
            name: "Patron",
            monthlyPrice: "15",
            yearlyPrice: "150",
            files: [{ uploadId: clubUpload }],
            prices: [{ currency: "eur", monthly: "14", yearly: "140" }],
          },
        ],
      },
    });
    expect(club.statusCode, club.body).toBe(201);
    fixture.club = club.json().id;
    expect(await tierPricesOf(a, sellerA.userId)).toEqual(TIER_PRICES);
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
    const importId = await newImport(sellerB.cookie);
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
        [fixture.club, "new"],
      ]),
    );
    expect(checked.report!.counts.orders).toEqual({ new: 3, existing: 0 });
    expect(checked.report!.counts.refundedOrders).toBe(1);
    expect(checked.report!.problemsTotal).toBe(0);
    expect(done.status, done.error ?? "").toBe("imported");
    expect(done.result).toMatchObject({ products: 3, orders: 3, licenseKeys: 1, unsubscribes: 1 });
    // The tiers came with exactly their prices in other currencies (also compared below, record by record).
    expect(await tierPricesOf(b, sellerB.userId)).toEqual(TIER_PRICES);

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

  it("an archive written before tiers carried other prices imports its tiers with none", async () => {
    const older = await editedArchive(fixture.archive, (product) => {
      for (const tier of product.tiers as Record<string, unknown>[]) delete tier.otherPrices;
    });
    const olderTiers = (await zipEntries(older))
      [ARCHIVE_RECORD_FILES.products.path]!.toString("utf8")
      .split("\n")
      .filter((line) => line !== "")
      .flatMap((line) => (JSON.parse(line) as { tiers: Record<string, unknown>[] }).tiers);
    expect(olderTiers.map((tier) => [tier.name, "otherPrices" in tier])).toEqual([
      ["Fan", false],
      ["Patron", false],
    ]);
    const sellerC = await readySeller(b);
    const { checked, done } = await importArchive(older, sellerC.cookie);
    expect(checked.report!.problemsTotal).toBe(0);
    expect(done.status, done.error ?? "").toBe("imported");
    expect(done.result).toMatchObject({ products: 3, skipped: 0 });
    const tiers = await b.db
      .selectFrom("membership_tiers")
      .select("name")
      .where("seller_id", "=", sellerC.userId)
      .orderBy("position")
      .execute();
    expect(tiers).toEqual([{ name: "Fan" }, { name: "Patron" }]);
    expect(await tierPricesOf(b, sellerC.userId)).toEqual([]);
  }, 120_000);

  it("a tier price the tier editor would refuse is a problem of the dry run, and the run leaves its product out", async () => {
    const withPrices = (tierName: string, otherPrices: ArchiveProduct["tiers"][number]["otherPrices"]) =>
      editedArchive(fixture.archive, (product) => {
        for (const tier of product.tiers as Record<string, unknown>[])
          if (tier.name === tierName) tier.otherPrices = otherPrices;
      });
    const sellerD = await readySeller(b);
    const clubLine = async (archive: Buffer) => {
      const { importId, checked } = await checkArchive(archive, sellerD.cookie);
      expect(checked.report!.problemsTotal).toBe(1);
      expect(checked.report!.products.map((product) => product.externalId)).not.toContain(fixture.club);
      expect(checked.report!.counts.products).toEqual({ new: 2, existing: 0 });
      return { importId, problem: checked.report!.problems[0] };
    };
    // In the store currency (USD: this store has no sales, so it takes the archive's).
    const sameAsStore = await clubLine(
      await withPrices("Fan", [{ currency: "usd", monthlyPriceCents: 400, yearlyPriceCents: null }]),
    );
    expect(sameAsStore.problem).toEqual({
      file: "flatfee-store.zip: products.ndjson",
      line: expect.any(Number),
      reason: `The tier "Fan": ${CURRENCY_MESSAGES.sameAsStore("usd")} The product is not imported.`,
    });
    // Below Stripe's smallest charge in EUR.
    const tooLow = await clubLine(
      await withPrices("Patron", [{ currency: "eur", monthlyPriceCents: 40, yearlyPriceCents: 14000 }]),
    );
    expect(tooLow.problem?.reason).toBe(
      'The tier "Patron": Prices in EUR start at €0.50. The product is not imported.',
    );
    // A yearly amount on the tier offered monthly only.
    const yearly = await clubLine(
      await withPrices("Fan", [{ currency: "gbp", monthlyPriceCents: 400, yearlyPriceCents: 4000 }]),
    );
    expect(yearly.problem?.reason).toBe(
      `The tier "Fan": This tier has no yearly price, so its price in GBP can't have one. Add a yearly price to the tier first. The product is not imported.`,
    );

    // The run skips the product's line: nothing of it is written, the rest is imported.
    const run = await b.request({
      method: "POST",
      url: `/api/store-imports/${tooLow.importId}/run`,
      cookie: sellerD.cookie,
      body: { notifyBuyers: false },
    });
    expect(run.statusCode, run.body).toBe(202);
    await b.app.jobs.runDue();
    await b.app.jobs.runDue();
    const done = await view(tooLow.importId, sellerD.cookie);
    expect(done.status, done.error ?? "").toBe("imported");
    expect(done.result).toMatchObject({ products: 2, skipped: 1 });
    const titles = await b.db
      .selectFrom("products")
      .select("title")
      .where("user_id", "=", sellerD.userId)
      .orderBy("title")
      .execute();
    expect(titles).toEqual([{ title: "The Guide" }, { title: "The Pack" }]);
    expect(
      await b.db
        .selectFrom("membership_tiers")
        .select("id")
        .where("seller_id", "=", sellerD.userId)
        .execute(),
    ).toEqual([]);
    expect(await tierPricesOf(b, sellerD.userId)).toEqual([]);
  }, 180_000);
});
