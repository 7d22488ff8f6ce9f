import { createHash, randomBytes } from "node:crypto";
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  ARCHIVE_RECORD_FILES,
  ARCHIVE_RECORD_KINDS,
  type ArchiveRecordKind,
  archiveManifestSchema,
  archiveStoreSchema,
  MANIFEST_PATH,
  STORE_ARCHIVE_FORMAT,
  STORE_PATH,
} from "../../src/contracts/store-archive";
import {
  EXPORT_API_KINDS,
  STORE_EXPORT_MESSAGES,
  type StoreExportState,
} from "../../src/contracts/store-export";
import { unsubscribe } from "../../src/server/features/audience/unsubscribe";
import { deleteExpiredExports } from "../../src/server/features/store-export/expire-exports";
import { minimalPdf, pngImage } from "../../src/server/features/uploads/test-fixtures";
import { control } from "./support/emulator-control";
import { operatorSession } from "./support/operators";
import { downloadTokenOf, startFileDownload } from "./support/purchase-downloads";
import { buyProduct, createProduct, readySeller, upload } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";
import { zipEntries } from "./support/zip-entries";

// "Export my store" (docs/export-format.md): a real store (files, covers, prices in two currencies, a
// membership, codes, paid and refunded orders, license keys, an unsubscribed buyer, a webhook, a post)
// exported by the job, downloaded through its signed link, unzipped and checked against the database.
let t: TestApp;
type Seller = Awaited<ReturnType<typeof readySeller>>;
let seller: Seller;
let other: Seller;
beforeAll(async () => {
  t = await createTestApp({ listen: true, jobsInBackground: false });
  [seller, other] = [await readySeller(t), await readySeller(t)];
}, 180_000);
afterAll(() => t.close());
afterEach(() => t.clock.reset());

const DAY_MS = 24 * 60 * 60 * 1000;
const WEBHOOK_URL = "https://example.com/flatfee-hooks";

const get = (url: string, cookie?: string, headers?: Record<string, string>) =>
  t.request({ method: "GET", url, ...(cookie ? { cookie } : {}), ...(headers ? { headers } : {}) });
const post = (url: string, cookie: string, body?: unknown) =>
  t.request({ method: "POST", url, cookie, ...(body === undefined ? {} : { body }) });
const stateOf = async (cookie: string) => {
  const response = await get("/api/store-export", cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as StoreExportState;
};
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** Starts an export, runs the jobs, and answers the ready export's state. */
async function exportStore(cookie: string) {
  const started = await post("/api/store-export", cookie);
  expect(started.statusCode, started.body).toBe(202);
  expect((started.json() as StoreExportState).latest?.status).toBe("queued");
  await t.app.jobs.runDue();
  const state = await stateOf(cookie);
  expect(state.latest).toMatchObject({ status: "ready" });
  return state.latest!;
}

/** The archive behind a ready export's link, unzipped. */
async function download(url: string) {
  const response = await get(new URL(url).pathname);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers["content-type"]).toBe("application/zip");
  expect(response.headers["content-disposition"]).toMatch(
    /^attachment; filename="flatfee-store-\d{4}-\d{2}-\d{2}\.zip"/,
  );
  return { bytes: response.rawPayload, files: await zipEntries(response.rawPayload) };
}

/** One NDJSON file's records, each checked against its schema with nothing more and nothing less. */
function recordsOf<K extends ArchiveRecordKind>(files: Record<string, Buffer>, kind: K) {
  const { path: file, schema } = ARCHIVE_RECORD_FILES[kind];
  const text = files[file]?.toString("utf8");
  expect(text, file).toBeDefined();
  const lines = text!.split("\n").filter((line) => line !== "");
  return lines.map((line) => {
    const raw = JSON.parse(line);
    const parsed = (schema as z.ZodType).parse(raw);
    expect(parsed, `${file}: a field the schema does not describe`).toEqual(raw);
    return parsed as z.infer<(typeof ARCHIVE_RECORD_FILES)[K]["schema"]>;
  });
}

/** The stored bytes of an upload (product-files or product-covers), as the storage has them. */
const storedBytes = (bucket: string, key: string) => readFile(path.join(t.storageRoot, bucket, key));

describe("a whole store", () => {
  const fixture = {} as {
    guide: { id: string };
    pack: { id: string };
    club: { id: string; tiers: { id: string }[]; fileIds: string[] };
    orders: string[];
    refunded: string;
    licensed: string;
    unsubscribed: string;
    webhookSecret: string;
    postId: string;
    membershipId: string;
  };

  beforeAll(async () => {
    const cookie = seller.cookie;
    const picture = await upload(t, cookie, "profile-picture", "me.png", await pngImage());
    const settings = await t.request({
      method: "PUT",
      url: "/api/store-settings",
      cookie,
      body: { storeName: "Ἀθηνᾶ's Type Shop", storeTagline: "Fonts", profilePictureUploadId: picture },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    fixture.guide = await createProduct(t, cookie, {
      title: "The Guide",
      issueLicenseKeys: true,
      prices: [{ currency: "eur", price: "18" }],
    });
    // Names buyers see may hold what a path may not: each stays one safe segment in the archive.
    const packFiles = [];
    for (const [index, name] of ["one/two.pdf", "..", "ünïcode ✓.pdf"].entries()) {
      packFiles.push({
        uploadId: await upload(t, cookie, "product-file", `part-${index}.pdf`, minimalPdf(700 + index)),
        name,
      });
    }
    const pack = await post("/api/products", cookie, {
      title: "The Pack",
      price: "9.00",
      inventoryType: "unlimited",
      files: packFiles,
    });
    expect(pack.statusCode, pack.body).toBe(201);
    fixture.pack = pack.json();
    const clubFiles = [
      await upload(t, cookie, "product-file", "basics.pdf", minimalPdf(601)),
      await upload(t, cookie, "product-file", "bonus.pdf", minimalPdf(602)),
    ];
    const club = await post("/api/products", cookie, {
      kind: "membership",
      title: "The Club",
      files: clubFiles.map((uploadId) => ({ uploadId })),
      tiers: [
        {
          name: "Fan",
          monthlyPrice: "5",
          files: [{ uploadId: clubFiles[0] }],
          prices: [{ currency: "gbp", monthly: "4" }],
        },
        {
          name: "Patron",
          monthlyPrice: "15",
          yearlyPrice: "150",
          files: clubFiles.map((uploadId) => ({ uploadId })),
          // Sent GBP first: the archive lists them in currency order.
          prices: [
            { currency: "gbp", monthly: "12", yearly: "120" },
            { currency: "eur", monthly: "14", yearly: "140" },
          ],
        },
      ],
    });
    expect(club.statusCode, club.body).toBe(201);
    const clubDetail = (await get(`/api/products/${club.json().id}`, cookie)).json();
    fixture.club = {
      id: club.json().id,
      tiers: club.json().tiers,
      fileIds: clubDetail.files.map((file: { id: string }) => file.id),
    };
    const code = await post("/api/discount-codes", cookie, {
      code: "SPRING",
      kind: "percent",
      value: 10,
      appliesTo: "chosen",
      productIds: [fixture.guide.id],
    });
    expect(code.statusCode, code.body).toBe(201);

    const buyers = ["first", "second", "third"].map(
      (name) => `${name}-${randomBytes(4).toString("hex")}@example.com`,
    );
    fixture.orders = [
      await buyProduct(t, fixture.guide.id, buyers[0]!),
      await buyProduct(t, fixture.guide.id, buyers[1]!),
      await buyProduct(t, fixture.pack.id, buyers[2]!),
    ];
    [fixture.licensed, , fixture.refunded] = fixture.orders as [string, string, string];
    const token = await downloadTokenOf(t, fixture.orders[0]!);
    expect((await startFileDownload(t, token)).statusCode).toBe(200);
    const refund = await post(`/api/orders/${fixture.refunded}/refund`, cookie);
    expect(refund.statusCode, refund.body).toBe(204);
    const key = await t.db
      .selectFrom("license_keys")
      .select("key")
      .where("order_id", "=", fixture.licensed)
      .executeTakeFirstOrThrow();
    for (let use = 0; use < 2; use++) {
      const verified = await t.request({
        method: "POST",
        url: "/api/v1/licenses/verify",
        headers: {},
        body: { product_id: fixture.guide.id, license_key: key.key },
      });
      expect(verified.statusCode, verified.body).toBe(200);
    }
    fixture.unsubscribed = buyers[1]!;
    await unsubscribe(t.db, { sellerId: seller.userId, email: fixture.unsubscribed });
    await unsubscribe(t.db, { sellerId: seller.userId, email: "never-bought@example.com" });

    const created = await post("/api/posts", cookie, {
      productId: fixture.club.id,
      title: "Welcome",
      body: "Hello **members**.",
      tierIds: [fixture.club.tiers[1]!.id],
      fileIds: [fixture.club.fileIds[1]],
      publish: false,
    });
    expect(created.statusCode, created.body).toBe(201);
    fixture.postId = created.json().id;
    fixture.membershipId = await insertMembership(seller, fixture.club.id, fixture.club.tiers[0]!.id);
    // After the sales, so nothing is delivered to it.
    const endpoint = await post("/api/webhook-endpoints", cookie, {
      url: WEBHOOK_URL,
      events: ["sale.completed"],
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    fixture.webhookSecret = endpoint.json().secret;
    await t.app.jobs.runDue();
  }, 180_000);

  it("streams every record and file into one archive, each NDJSON line its schema's, equal to the store's rows", async () => {
    const ready = await exportStore(seller.cookie);
    expect(ready.downloadUrl).toMatch(/^http:\/\/localhost:3000\/store-export\/[\w-]+\.[\w-]+$/);
    expect(new Date(ready.expiresAt!).getTime() - new Date(ready.readyAt!).getTime()).toBe(7 * DAY_MS);
    const { bytes, files } = await download(ready.downloadUrl!);
    expect(ready.sizeBytes).toBe(bytes.length);
    expect(ready.progress.bytesDone).toBe(ready.progress.bytesTotal);
    expect(ready.progress.recordsDone).toBeGreaterThan(10);

    // The manifest lists every other entry with its real size and SHA-256, and counts each kind.
    const manifest = archiveManifestSchema.parse(JSON.parse(files[MANIFEST_PATH]!.toString()));
    expect(manifest).toMatchObject({
      format: STORE_ARCHIVE_FORMAT,
      version: 1,
      store: { id: seller.userId, name: "Ἀθηνᾶ's Type Shop" },
      source: { instanceUrl: "http://localhost:3000" },
    });
    expect(manifest.files.map((file) => file.path).sort()).toEqual(
      Object.keys(files)
        .filter((name) => name !== MANIFEST_PATH)
        .sort(),
    );
    for (const file of manifest.files) {
      expect(file.sizeBytes, file.path).toBe(files[file.path]!.length);
      expect(file.sha256, file.path).toBe(sha256(files[file.path]!));
    }
    for (const kind of ARCHIVE_RECORD_KINDS) {
      expect(manifest.counts[kind], kind).toBe(recordsOf(files, kind).length);
    }

    await checkStore(files);
    await checkProducts(files);
    await checkOrders(files);
    await checkTheRest(files);

    // The webhook's signing secret is nowhere in the archive.
    expect(bytes.includes(Buffer.from(fixture.webhookSecret))).toBe(false);
    for (const [name, content] of Object.entries(files)) {
      expect(content.includes(Buffer.from(fixture.webhookSecret)), name).toBe(false);
    }

    // The creator is emailed the same link.
    const email = await t.db
      .selectFrom("outbox_emails")
      .selectAll()
      .where("to_address", "=", seller.email)
      .where("subject", "=", "Your Flatfee store export is ready")
      .executeTakeFirstOrThrow();
    expect(email.text).toContain(ready.downloadUrl);
    expect(email.html).toContain(`href="${ready.downloadUrl}"`);
  });

  async function checkStore(files: Record<string, Buffer>) {
    const store = archiveStoreSchema.parse(JSON.parse(files[STORE_PATH]!.toString()));
    expect(store).toMatchObject({
      id: seller.userId,
      name: "Ἀθηνᾶ's Type Shop",
      tagline: "Fonts",
      currency: "usd",
      adaptivePricing: false,
      checkoutRecoveryEmails: true,
      picture: { path: "store/picture.webp", contentType: "image/webp" },
      tax: null,
      invoiceNumbers: { lastInvoice: 3, lastCreditNote: 1 },
    });
    const picture = await t.db
      .selectFrom("profiles")
      .innerJoin("uploads", "uploads.id", "profiles.profile_picture_upload_id")
      .select("uploads.storage_key")
      .where("profiles.id", "=", seller.userId)
      .executeTakeFirstOrThrow();
    expect(
      files["store/picture.webp"]!.equals(await storedBytes("product-covers", picture.storage_key!)),
    ).toBe(true);
  }

  async function checkProducts(files: Record<string, Buffer>) {
    const products = recordsOf(files, "products");
    const rows = await t.db
      .selectFrom("products")
      .selectAll()
      .where("user_id", "=", seller.userId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    expect(products.map((product) => product.id)).toEqual(rows.map((row) => row.id));
    for (const [index, row] of rows.entries()) {
      expect(products[index]).toMatchObject({
        kind: row.kind,
        title: row.title,
        description: row.description,
        active: row.is_active,
        currency: "usd",
        priceMode: row.price_mode,
        priceCents: row.price_cents,
        suggestedPriceCents: row.suggested_price_cents,
        settings: {
          issueLicenseKeys: row.issue_license_keys,
          stampPdfs: row.stamp_pdfs,
          taxCategory: row.tax_category,
          inventory: { type: row.inventory_type, quantityAvailable: row.quantity_available },
        },
        createdAt: row.created_at.toISOString(),
        updatedAt: row.updated_at.toISOString(),
      });
      // Every file: its bytes in the archive are the stored ones, with their size and SHA-256.
      const stored = await t.db
        .selectFrom("product_files")
        .innerJoin("uploads", "uploads.id", "product_files.upload_id")
        .select([
          "product_files.id",
          "product_files.display_name",
          "uploads.storage_key",
          "uploads.content_type",
        ])
        .where("product_files.product_id", "=", row.id)
        .orderBy("product_files.position")
        .execute();
      const archived = products[index]!.files;
      expect(archived.map((file) => [file.id, file.name])).toEqual(
        stored.map((file) => [file.id, file.display_name]),
      );
      for (const [position, file] of archived.entries()) {
        const original = await storedBytes("product-files", stored[position]!.storage_key!);
        expect(file.path).toBe(
          `files/${row.id}/${file.id}/${file.name.replace(/[/\\]/g, "_").replace(/^\.\.?$/, "_")}`,
        );
        expect(files[file.path]!.equals(original), file.path).toBe(true);
        expect(file).toMatchObject({
          position,
          sizeBytes: original.length,
          contentType: stored[position]!.content_type,
          sha256: sha256(original),
        });
      }
    }
    const guide = products.find((product) => product.id === fixture.guide.id)!;
    expect(guide).toMatchObject({
      priceCents: 1999,
      otherPrices: [{ currency: "eur", priceCents: 1800 }],
      tiers: [],
    });
    const cover = await t.db
      .selectFrom("products")
      .innerJoin("uploads", "uploads.id", "products.cover_upload_id")
      .select("uploads.storage_key")
      .where("products.id", "=", fixture.guide.id)
      .executeTakeFirstOrThrow();
    expect(guide.cover).toEqual({ path: `covers/${fixture.guide.id}/cover.jpg`, contentType: "image/jpeg" });
    expect(files[guide.cover!.path]!.equals(await storedBytes("product-covers", cover.storage_key!))).toBe(
      true,
    );
    const pack = products.find((product) => product.id === fixture.pack.id)!;
    expect(pack.files.map((file) => file.path.split("/").pop())).toEqual([
      "one_two.pdf",
      "_",
      "ünïcode ✓.pdf",
    ]);
    const club = products.find((product) => product.id === fixture.club.id)!;
    expect(club.tiers).toMatchObject([
      {
        id: fixture.club.tiers[0]!.id,
        name: "Fan",
        monthlyPriceCents: 500,
        yearlyPriceCents: null,
        currency: "usd",
        fileIds: [fixture.club.fileIds[0]],
        otherPrices: [{ currency: "gbp", monthlyPriceCents: 400, yearlyPriceCents: null }],
      },
      {
        id: fixture.club.tiers[1]!.id,
        name: "Patron",
        monthlyPriceCents: 1500,
        yearlyPriceCents: 15000,
        fileIds: [...fixture.club.fileIds].sort(),
        otherPrices: [
          { currency: "eur", monthlyPriceCents: 1400, yearlyPriceCents: 14000 },
          { currency: "gbp", monthlyPriceCents: 1200, yearlyPriceCents: 12000 },
        ],
      },
    ]);
    // Exactly the tiers' stored prices, no other tier's: the one-time products' tiers are empty.
    const storedPrices = await t.db
      .selectFrom("membership_tier_currency_prices")
      .select(["tier_id", "currency"])
      .where("seller_id", "=", seller.userId)
      .execute();
    expect(storedPrices).toHaveLength(
      products.flatMap((product) => product.tiers.flatMap((tier) => tier.otherPrices)).length,
    );
  }

  async function checkOrders(files: Record<string, Buffer>) {
    const orders = recordsOf(files, "orders");
    const rows = await t.db
      .selectFrom("orders")
      .selectAll()
      .where("seller_id", "=", seller.userId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    expect(orders.map((order) => order.id)).toEqual(rows.map((row) => row.id));
    for (const [index, row] of rows.entries()) {
      expect(orders[index]).toMatchObject({
        createdAt: row.created_at.toISOString(),
        productId: row.product_id,
        productTitle: row.product_title,
        status: row.status,
        refundedAt: row.refunded_at?.toISOString() ?? null,
        amountCents: row.amount_cents,
        currency: row.currency,
        settlementCents: row.settlement_cents,
        settlementCurrency: row.settlement_currency,
        discount: null,
        tax: { taxCents: row.tax_cents, behavior: row.tax_behavior, reverseCharge: row.reverse_charge },
        buyer: {
          email: row.customer_email,
          name: row.buyer_name,
          country: row.buyer_country,
          locale: row.buyer_locale,
        },
        dispute: null,
        downloads: { used: row.downloads_used, windowEndsAt: row.download_window_ends_at.toISOString() },
        stripe: {
          accountId: seller.account,
          checkoutSessionId: row.stripe_session_id,
          paymentIntentId: row.payment_intent_id,
        },
      });
    }
    expect(orders.find((order) => order.id === fixture.refunded)).toMatchObject({ status: "refunded" });
    expect(orders.find((order) => order.id === fixture.refunded)!.refundedAt).not.toBeNull();
    const downloaded = orders.find((order) => order.id === fixture.orders[0])!;
    expect(downloaded.downloads.used).toBe(1);
    expect(downloaded.downloads.files).toEqual([{ fileId: expect.any(String), used: 1 }]);
  }

  async function checkTheRest(files: Record<string, Buffer>) {
    const customers = recordsOf(files, "customers");
    const customerRows = await t.db
      .selectFrom("customers")
      .selectAll()
      .where("seller_id", "=", seller.userId)
      .execute();
    expect(customers.filter((customer) => customer.firstPurchaseAt !== null)).toHaveLength(
      customerRows.length,
    );
    for (const row of customerRows) {
      expect(customers.find((customer) => customer.email === row.email)).toEqual({
        email: row.email,
        firstPurchaseAt: row.first_purchase_at.toISOString(),
        lastPurchaseAt: row.last_purchase_at.toISOString(),
        ordersCount: row.orders_count,
        completedCount: row.completed_count,
        totalCents: Number(row.total_cents),
        currency: "usd",
        productTitles: row.product_titles,
        unsubscribed: row.email === fixture.unsubscribed,
        unsubscribedAt: row.email === fixture.unsubscribed ? expect.any(String) : null,
      });
    }
    expect(customers.find((customer) => customer.email === "never-bought@example.com")).toMatchObject({
      firstPurchaseAt: null,
      ordersCount: 0,
      unsubscribed: true,
    });
    expect(customers.map((customer) => customer.email)).toEqual(
      customers.map((customer) => customer.email).sort(),
    );

    expect(recordsOf(files, "discount-codes")).toMatchObject([
      {
        code: "SPRING",
        kind: "percent",
        value: 10,
        currency: null,
        allProducts: false,
        productIds: [fixture.guide.id],
        usesUsed: 0,
      },
    ]);
    const keys = recordsOf(files, "license-keys");
    expect(keys).toHaveLength(2);
    expect(keys.find((key) => key.orderId === fixture.licensed)).toMatchObject({
      productId: fixture.guide.id,
      uses: 2,
      disabled: false,
      lastVerifiedAt: expect.any(String),
    });
    expect(recordsOf(files, "memberships")).toMatchObject([
      {
        id: fixture.membershipId,
        productId: fixture.club.id,
        tierName: "Fan",
        amountCents: 500,
        currency: "usd",
        status: "active",
      },
    ]);
    expect(recordsOf(files, "posts")).toEqual([
      expect.objectContaining({
        id: fixture.postId,
        productId: fixture.club.id,
        title: "Welcome",
        body: "Hello **members**.",
        tierIds: [fixture.club.tiers[1]!.id],
        files: [
          {
            fileId: fixture.club.fileIds[1],
            path: expect.stringMatching(/^files\/.+\/bonus\.pdf$/),
            position: 0,
          },
        ],
        publishedAt: null,
      }),
    ]);
    const post = recordsOf(files, "posts")[0]!;
    expect(files[post.files[0]!.path]).toBeDefined();

    const invoices = recordsOf(files, "invoices");
    const invoiceRows = await t.db
      .selectFrom("invoices")
      .selectAll()
      .where("seller_id", "=", seller.userId)
      .execute();
    expect(invoices).toHaveLength(invoiceRows.length);
    for (const row of invoiceRows) {
      expect(invoices.find((invoice) => invoice.id === row.id)).toMatchObject({
        orderId: row.order_id,
        kind: row.kind,
        numberText: row.number_text,
        currency: row.currency,
        subtotalCents: row.subtotal_cents,
        taxCents: row.tax_cents,
        totalCents: row.total_cents,
        buyer: { email: row.buyer.email },
        lines: row.lines.map((line) => expect.objectContaining({ totalCents: line.totalCents })),
      });
    }
    expect(invoices.map((invoice) => invoice.kind).sort()).toEqual([
      "credit_note",
      "invoice",
      "invoice",
      "invoice",
    ]);

    expect(recordsOf(files, "webhooks")).toEqual([
      { id: expect.any(String), url: WEBHOOK_URL, events: ["sale.completed"], createdAt: expect.any(String) },
    ]);

    const productDays = recordsOf(files, "analytics-product-days");
    const dayRows = await t.db
      .selectFrom("analytics_product_days")
      .selectAll()
      .where("seller_id", "=", seller.userId)
      .execute();
    expect(productDays).toHaveLength(dayRows.length);
    expect(productDays.reduce((sum, day) => sum + day.units, 0)).toBe(
      dayRows.reduce((sum, row) => sum + row.units, 0),
    );
    expect(recordsOf(files, "analytics-source-days").length).toBeGreaterThan(0);
  }

  it("another seller can neither see the export nor open a link made for another export", async () => {
    expect((await stateOf(other.cookie)).latest).toBeNull();
    const mine = (await stateOf(seller.cookie)).latest!;
    const token = new URL(mine.downloadUrl!).pathname.split("/").pop()!;
    const [payload, mac] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const forged = `${Buffer.from(JSON.stringify({ ...claims, exportId: "exp_other" })).toString("base64url")}.${mac}`;
    const refused = await get(`/store-export/${forged}`, other.cookie);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({
      code: "link_invalid",
      message: STORE_EXPORT_MESSAGES.linkInvalid,
    });
    expect((await get("/api/store-export")).statusCode).toBe(401);
  });

  it("pages the same records through the seller API, limit 2 over 5, never another seller's", async () => {
    for (const code of ["AUTUMN", "WINTER", "SUMMER", "EASTER"]) {
      const response = await post("/api/discount-codes", seller.cookie, {
        code,
        kind: "amount",
        value: 300,
        appliesTo: "all",
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    const theirs = await post("/api/discount-codes", other.cookie, {
      code: "THEIRS",
      kind: "percent",
      value: 5,
      appliesTo: "all",
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    const key = (await post("/api/api-keys", seller.cookie, { name: "Export" })).json().secret as string;
    const api = (url: string) => get(url, undefined, { authorization: `Bearer ${key}` });

    const seen: string[] = [];
    let cursor: string | null = null;
    const pageSizes: number[] = [];
    do {
      const response = await api(`/api/v1/export/discount-codes?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json() as { data: { code: string }[]; nextCursor: string | null };
      for (const record of page.data) ARCHIVE_RECORD_FILES["discount-codes"].schema.parse(record);
      pageSizes.push(page.data.length);
      seen.push(...page.data.map((record) => record.code));
      cursor = page.nextCursor;
    } while (cursor);
    expect(pageSizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(["AUTUMN", "EASTER", "SPRING", "SUMMER", "WINTER"]);

    // Every kind answers the archive's records, only this seller's.
    for (const kind of EXPORT_API_KINDS) {
      const response = await api(`/api/v1/export/${kind}?limit=500`);
      expect(response.statusCode, `${kind}: ${response.body}`).toBe(200);
      const { data, nextCursor } = response.json() as { data: unknown[]; nextCursor: string | null };
      expect(nextCursor).toBeNull();
      for (const record of data) ARCHIVE_RECORD_FILES[kind].schema.parse(record);
      expect(JSON.stringify(data)).not.toContain(other.userId);
    }
    const products = (await api("/api/v1/export/products")).json().data as {
      id: string;
      files: { sha256: string | null }[];
      tiers: { otherPrices: unknown[] }[];
    }[];
    // The tiers' prices in other currencies, as in the archive.
    expect(
      products.find((product) => product.id === fixture.club.id)!.tiers.map((tier) => tier.otherPrices),
    ).toEqual([
      [{ currency: "gbp", monthlyPriceCents: 400, yearlyPriceCents: null }],
      [
        { currency: "eur", monthlyPriceCents: 1400, yearlyPriceCents: 14000 },
        { currency: "gbp", monthlyPriceCents: 1200, yearlyPriceCents: 12000 },
      ],
    ]);
    expect(products.map((product) => product.id).sort()).toEqual(
      [fixture.guide.id, fixture.pack.id, fixture.club.id].sort(),
    );
    expect(products.flatMap((product) => product.files).every((file) => file.sha256 === null)).toBe(true);
    const webhooks = await api("/api/v1/export/webhooks");
    expect(webhooks.body).not.toContain(fixture.webhookSecret);

    expect((await api("/api/v1/export/orders?cursor=not-a-cursor")).json()).toMatchObject({
      code: "bad_request",
    });
    expect((await api("/api/v1/export/orders?limit=501")).statusCode).toBe(400);
    expect((await get("/api/v1/export/orders")).statusCode).toBe(401);
    const openapi = (await get("/api/v1/openapi.json")).json();
    expect(openapi.paths["/api/v1/export/products"].get.operationId).toBe("exportProducts");
    expect(openapi.components.schemas.ExportLicenseKeysPage).toBeDefined();
  });

  it("the link answers 410 after 7 days, and housekeeping deletes the archive", async () => {
    const ready = (await stateOf(seller.cookie)).latest!;
    const archive = await t.db
      .selectFrom("store_exports")
      .selectAll()
      .where("id", "=", ready.id)
      .executeTakeFirstOrThrow();
    const file = path.join(t.storageRoot, "store-exports", archive.storage_key!);
    expect((await stat(file)).size).toBe(ready.sizeBytes);
    const linkPath = new URL(ready.downloadUrl!).pathname;
    // A download manager's resumed download: one range.
    const resumed = await get(linkPath, undefined, { range: "bytes=10-19" });
    expect(resumed.statusCode).toBe(206);
    expect(resumed.rawPayload).toEqual((await readFile(file)).subarray(10, 20));

    t.clock.advance(7 * DAY_MS - 60_000);
    expect((await get(linkPath)).statusCode).toBe(200);
    expect(await deleteExpiredExports({ db: t.db, storage: t.storage }, t.clock.now())).toBe(0);
    t.clock.advance(2 * 60_000);
    const gone = await get(linkPath);
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ code: "link_expired", message: STORE_EXPORT_MESSAGES.linkExpired });
    expect((await stateOf(seller.cookie)).latest).toMatchObject({ status: "expired", downloadUrl: null });

    expect(await deleteExpiredExports({ db: t.db, storage: t.storage }, t.clock.now())).toBe(1);
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
    expect(
      await t.db.selectFrom("store_exports").select("status").where("id", "=", ready.id).executeTakeFirst(),
    ).toEqual({
      status: "expired",
    });
    expect((await get(linkPath)).statusCode).toBe(410);
  });

  it("a run that died or failed is run again from the start and gives a valid archive", async () => {
    // The first try fails: a product file is missing from storage.
    const file = await t.db
      .selectFrom("product_files")
      .innerJoin("uploads", "uploads.id", "product_files.upload_id")
      .select("uploads.storage_key")
      .where("product_files.product_id", "=", fixture.pack.id)
      .executeTakeFirstOrThrow();
    const filePath = path.join(t.storageRoot, "product-files", file.storage_key!);
    const original = await readFile(filePath);
    await t.storage.delete("product-files", file.storage_key!);
    expect((await post("/api/store-export", seller.cookie)).statusCode).toBe(202);
    await t.app.jobs.runDue();
    const waiting = (await stateOf(seller.cookie)).latest!;
    expect(waiting.status).toBe("queued");
    // One at a time: the one waiting for its retry still counts.
    const second = await post("/api/store-export", seller.cookie);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({
      code: "export_in_progress",
      message: STORE_EXPORT_MESSAGES.alreadyBuilding,
    });

    // The process dies mid-build on the retry: the row says building with progress, a partial object sits
    // at its key, the job's lease ran out.
    await writeFile(filePath, original);
    const row = await t.db
      .selectFrom("store_exports")
      .selectAll()
      .where("id", "=", waiting.id)
      .executeTakeFirstOrThrow();
    await t.storage.write(
      "store-exports",
      row.storage_key!,
      (await import("node:stream")).Readable.from([Buffer.from("PK\u0003\u0004partial")]),
    );
    await t.db
      .updateTable("store_exports")
      .set({ status: "building", bytes_done: 12345, records_done: 7 })
      .where("id", "=", waiting.id)
      .execute();
    await t.db
      .updateTable("jobs")
      .set({ run_at: new Date(0), lease: "dead-instance" })
      .where("name", "=", "store-export.build")
      .execute();
    await t.app.jobs.runDue();

    const ready = (await stateOf(seller.cookie)).latest!;
    expect(ready).toMatchObject({ id: waiting.id, status: "ready" });
    const { files } = await download(ready.downloadUrl!);
    const manifest = archiveManifestSchema.parse(JSON.parse(files[MANIFEST_PATH]!.toString()));
    for (const listed of manifest.files) expect(listed.sha256, listed.path).toBe(sha256(files[listed.path]!));
    expect(recordsOf(files, "products")).toHaveLength(3);
    expect(Object.values(files).some((bytes) => bytes.equals(original))).toBe(true);
  });
});

describe("an export is always allowed", () => {
  it("while the store is suspended, and up to 3 a day", async () => {
    const { cookie: operatorCookie } = await operatorSession(t);
    const suspended = await t.request({
      method: "POST",
      url: `/api/operator/sellers/${other.userId}/actions`,
      cookie: operatorCookie,
      body: { action: "suspend", reason: "Selling stolen courses" },
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect((await get("/api/standing", other.cookie)).json()).toMatchObject({ state: "suspended" });

    const ready = await exportStore(other.cookie);
    const { files } = await download(ready.downloadUrl!);
    expect(archiveManifestSchema.parse(JSON.parse(files[MANIFEST_PATH]!.toString())).store.id).toBe(
      other.userId,
    );

    await exportStore(other.cookie);
    await exportStore(other.cookie);
    const fourth = await post("/api/store-export", other.cookie);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({ code: "export_limit", message: STORE_EXPORT_MESSAGES.dailyLimit });
    expect((await stateOf(other.cookie)).nextAllowedAt).not.toBeNull();
    t.clock.advance(DAY_MS);
    expect((await post("/api/store-export", other.cookie)).statusCode).toBe(202);
    await t.app.jobs.runDue();
  });

  it("when the plan has lapsed", async () => {
    const lapsed = await readySeller(t);
    await createProduct(t, lapsed.cookie, { title: "Still mine" }, { cover: false });
    const subscription = await t.db
      .selectFrom("subscriptions")
      .select("stripe_subscription_id")
      .where("user_id", "=", lapsed.userId)
      .executeTakeFirstOrThrow();
    await control(t.emulator).renew(subscription.stripe_subscription_id, "failed", true);
    await eventually(async () =>
      expect((await get("/api/seller/status", lapsed.cookie)).json()).toMatchObject({
        canUseDashboard: false,
      }),
    );
    const ready = await exportStore(lapsed.cookie);
    const { files } = await download(ready.downloadUrl!);
    expect(recordsOf(files, "products")).toMatchObject([{ title: "Still mine" }]);
  });
});

async function insertMembership(owner: Seller, productId: string, tierId: string) {
  const now = t.clock.now();
  const id = `mem_${randomBytes(8).toString("hex")}`;
  await t.db
    .insertInto("memberships")
    .values({
      id,
      seller_id: owner.userId,
      product_id: productId,
      product_title: "The Club",
      tier_id: tierId,
      tier_name: "Fan",
      stripe_account_id: owner.account,
      stripe_subscription_id: `sub_${id}`,
      stripe_customer_id: `cus_${id}`,
      customer_email: `member-${id}@example.com`,
      billing_interval: "month",
      amount_cents: 500,
      status: "active",
      current_period_start: new Date(now.getTime() - DAY_MS),
      current_period_end: new Date(now.getTime() + 29 * DAY_MS),
      started_at: now,
      synced_at: now,
      created_at: now,
    })
    .execute();
  return id;
}
