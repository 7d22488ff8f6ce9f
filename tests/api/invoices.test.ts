import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { INVOICE_MESSAGES } from "../../src/contracts/invoices";
import { minimalPdf } from "../../src/server/features/uploads/test-fixtures";
import { control } from "./support/emulator-control";
import { pdfText } from "./support/pdf-text";
import { buyProduct, createProduct, readySeller, upload } from "./support/sellers";
import { createTestApp, signUp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";
import { zipEntries } from "./support/zip-entries";

// Invoices and credit notes (docs/tax-and-invoices.md): real sales through the emulator, real PDFs read
// back, the buyer's signed links and the seller's list and export.
let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  seller = await readySeller(t);
  await t.db
    .insertInto("store_tax_settings")
    .values({
      seller_id: seller.userId,
      invoice_prefix: "ACME-",
      legal_name: "Ἀθηνᾶ Books GmbH",
      legal_address: "Hauptstraße 1\n10115 Berlin",
      tax_id: "DE123456789",
      stripe_tax_status: null,
      head_office_country: "DE",
    })
    .execute();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => t.clock.reset());

const DAY_MS = 24 * 60 * 60 * 1000;
let counter = 0;
const buyerEmail = () => `invoice-buyer-${Date.now()}-${++counter}@example.com`;

const documentsOf = (orderId: string) =>
  t.db
    .selectFrom("invoices")
    .selectAll()
    .where("order_id", "=", orderId)
    .orderBy("kind")
    .orderBy("version")
    .execute();

/** The success page's purchase (by the order's checkout session): its signed invoice links. */
async function purchaseOf(orderId: string) {
  const order = await t.db
    .selectFrom("orders")
    .select("stripe_session_id")
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  const lookup = await t.request({ method: "GET", url: `/api/orders/by-session/${order.stripe_session_id}` });
  expect(lookup.statusCode, lookup.body).toBe(200);
  return lookup.json().purchase as {
    invoice: { pdfPath: string; creditNotePath: string | null; billingPath: string } | null;
  };
}

const get = (url: string, cookie?: string) =>
  t.request({ method: "GET", url, ...(cookie ? { cookie } : {}) });
const postForm = (url: string, fields: Record<string, string>) =>
  t.request({
    method: "POST",
    url,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });

let product: { id: string };
let firstOrder: string;
let secondOrder: string;

describe("invoices", () => {
  it("numbers each paid order's invoice per seller, with the seller's prefix, without gaps", async () => {
    product = await createProduct(t, seller.cookie, { title: "Typography — Ελληνικά" }, { cover: false });
    firstOrder = await buyProduct(t, product.id, buyerEmail());
    secondOrder = await buyProduct(t, product.id, buyerEmail());
    const [first] = await documentsOf(firstOrder);
    const [second] = await documentsOf(secondOrder);
    expect(first).toMatchObject({
      kind: "invoice",
      number: 1,
      number_text: "ACME-000001",
      version: 1,
      total_cents: 1999,
      tax_cents: 0,
      subtotal_cents: 1999,
      currency: "usd",
    });
    expect(first!.seller).toMatchObject({ name: "Ἀθηνᾶ Books GmbH", taxId: "DE123456789" });
    expect(second).toMatchObject({ number: 2, number_text: "ACME-000002" });
  });

  it("renders a real PDF with the number, the parties, the amounts and the seller of record", async () => {
    const { invoice } = await purchaseOf(firstOrder);
    expect(invoice).not.toBeNull();
    const pdf = await get(invoice!.pdfPath);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    const text = await pdfText(pdf.rawPayload);
    const [order] = await t.db
      .selectFrom("orders")
      .select("customer_email")
      .where("id", "=", firstOrder)
      .execute();
    for (const expected of [
      "ACME-000001",
      "Ἀθηνᾶ Books GmbH",
      "Hauptstraße 1",
      "VAT ID: DE123456789",
      order!.customer_email,
      "$19.99",
      "Paid on",
      "seller of record",
    ]) {
      // A long address may wrap inside the buyer's column.
      expect(text.replaceAll("\n", "")).toContain(expected);
    }
  });

  it("shows the invoice links in the receipt email, and refuses a tampered link", async () => {
    const { invoice } = await purchaseOf(firstOrder);
    const [order] = await t.db
      .selectFrom("orders")
      .select("customer_email")
      .where("id", "=", firstOrder)
      .execute();
    const receipt = await t.db
      .selectFrom("outbox_emails")
      .select("text")
      .where("to_address", "=", order!.customer_email)
      .executeTakeFirstOrThrow();
    const emailed = receipt.text.match(/http:\/\/localhost:3000(\/invoice\/[^\s/]+)\s/);
    expect(emailed, receipt.text).not.toBeNull();
    expect((await get(emailed![1]!)).headers["content-type"]).toBe("application/pdf");

    const token = invoice!.pdfPath.replace("/invoice/", "");
    const [payload, mac] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const forged = `${Buffer.from(JSON.stringify({ ...claims, orderId: secondOrder })).toString("base64url")}.${mac}`;
    const refused = await get(`/invoice/${forged}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: "link_invalid" });
    expect((await get(`/invoice/${secondOrder}`)).statusCode).toBe(404);
    expect((await get(`/invoice/${forged}/billing`)).statusCode).toBe(404);
  });

  it("lets the buyer correct their billing details: version 2, same number; bad input changes nothing", async () => {
    const { invoice } = await purchaseOf(secondOrder);
    const page = await get(invoice!.billingPath);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("ACME-000002");

    const bad = await postForm(invoice!.billingPath, { name: "", businessName: "", country: "Germany" });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(INVOICE_MESSAGES.nameRequired);
    expect(await documentsOf(secondOrder)).toHaveLength(1);

    const saved = await postForm(invoice!.billingPath, {
      name: "Иван Петров",
      businessName: "Petrov Design",
      line1: "Rue de la Loi 1",
      postalCode: "1000",
      city: "Brussels",
      country: "be",
      taxId: "BE 0123.456.789",
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).toContain(INVOICE_MESSAGES.corrected);
    const versions = await documentsOf(secondOrder);
    expect(versions.map((row) => [row.number_text, row.version])).toEqual([
      ["ACME-000002", 1],
      ["ACME-000002", 2],
    ]);
    expect(versions[1]!.issued_at).toEqual(versions[0]!.issued_at);
    expect(versions[1]!.buyer).toMatchObject({ name: "Иван Петров", country: "BE", taxId: "BE0123456789" });

    const text = await pdfText((await get(invoice!.pdfPath)).rawPayload);
    expect(text).toContain("Corrected invoice, version 2");
    expect(text).toContain("Иван Петров");
    expect(text).toContain("Belgium");
  });

  it("closes corrections 30 days after the purchase, on the app's clock", async () => {
    const { invoice } = await purchaseOf(firstOrder);
    t.clock.advance(31 * DAY_MS);
    const page = await get(invoice!.billingPath);
    expect(page.body).toContain(INVOICE_MESSAGES.correctionClosed.slice(0, 40));
    const refused = await postForm(invoice!.billingPath, { name: "Late Name" });
    expect(refused.body).toContain("This period has ended");
    expect(await documentsOf(firstOrder)).toHaveLength(1);
  });

  it("issues a credit note with its own number on a refund, mirroring the invoice", async () => {
    const refund = await t.request({
      method: "POST",
      url: `/api/orders/${firstOrder}/refund`,
      cookie: seller.cookie,
    });
    expect(refund.statusCode, refund.body).toBe(204);
    const documents = await documentsOf(firstOrder);
    const credit = documents.find((row) => row.kind === "credit_note")!;
    expect(credit).toMatchObject({
      number: 1,
      number_text: "ACME-CN-000001",
      total_cents: -1999,
      credited_invoice_id: documents.find((row) => row.kind === "invoice")!.id,
    });
    const { invoice } = await purchaseOf(firstOrder);
    expect(invoice!.creditNotePath).not.toBeNull();
    const text = await pdfText((await get(invoice!.creditNotePath!)).rawPayload);
    expect(text).toContain("Credit note");
    expect(text).toContain("ACME-CN-000001");
    expect(text).toContain("-$19.99");
    expect(text).toContain("ACME-000001");
    // A refunded invoice is no longer corrected.
    expect((await get(invoice!.billingPath)).body).toContain(INVOICE_MESSAGES.correctionRefunded);
  });

  it("gives an order refunded at once (its unit could not be delivered) its invoice and a credit note", async () => {
    const limited = await createProduct(
      t,
      seller.cookie,
      { inventoryType: "limited", quantityAvailable: "1" },
      { cover: false },
    );
    const checkout = await t.request({
      method: "POST",
      url: "/api/checkout",
      body: { productId: limited.id },
    });
    const sessionId = new URL(checkout.json().url).pathname.split("/").pop()!;
    await t.db
      .updateTable("checkouts")
      .set({ reservation: "released" })
      .where("stripe_session_id", "=", sessionId)
      .execute();
    await t.db.updateTable("products").set({ quantity_available: 0 }).where("id", "=", limited.id).execute();
    await control(t.emulator).payCheckout(sessionId, "4242424242424242", buyerEmail());
    let orderId = "";
    await eventually(async () => {
      const order = await t.db
        .selectFrom("orders")
        .select(["id", "status"])
        .where("stripe_session_id", "=", sessionId)
        .executeTakeFirst();
      expect(order?.status).toBe("refunded");
      orderId = order!.id;
    });
    const documents = await documentsOf(orderId);
    expect(documents.map((row) => [row.kind, row.total_cents])).toEqual([
      ["credit_note", -1999],
      ["invoice", 1999],
    ]);
  });

  it("gives a free claim no invoice", async () => {
    const free = await createProduct(
      t,
      seller.cookie,
      { price: "0", title: "Free Brushes" },
      { cover: false },
    );
    const claim = await t.request({
      method: "POST",
      url: "/api/checkout/free",
      body: { productId: free.id, email: buyerEmail() },
    });
    expect(claim.statusCode, claim.body).toBe(202);
    const order = await t.db
      .selectFrom("orders")
      .select("id")
      .where("product_id", "=", free.id)
      .executeTakeFirstOrThrow();
    expect(await documentsOf(order.id)).toEqual([]);
    expect((await purchaseOf(order.id).catch(() => ({ invoice: null }))).invoice ?? null).toBeNull();
  });
});

describe("the seller's invoices", () => {
  it("lists the seller's documents newest first, the newest version of each, and filters by kind and period", async () => {
    const all = await get("/api/invoices", seller.cookie);
    expect(all.statusCode, all.body).toBe(200);
    const numbers = all
      .json()
      .invoices.map((row: { numberText: string; version: number }) => [row.numberText, row.version]);
    expect(numbers).toEqual(
      expect.arrayContaining([
        ["ACME-CN-000001", 1],
        ["ACME-000002", 2],
        ["ACME-000001", 1],
      ]),
    );
    expect(numbers).not.toContainEqual(["ACME-000002", 1]);
    const credits = await get("/api/invoices?kind=credit_note", seller.cookie);
    expect(credits.json().invoices.map((row: { numberText: string }) => row.numberText)).toEqual([
      "ACME-CN-000002",
      "ACME-CN-000001",
    ]);
    const none = await get("/api/invoices?from=2000-01-01&to=2000-12-31", seller.cookie);
    expect(none.json().invoices).toEqual([]);
    expect((await get("/api/invoices?from=2025-02-01&to=2025-01-01", seller.cookie)).statusCode).toBe(400);
  });

  it("serves the seller's PDFs and answers 404 for another seller's", async () => {
    const list = (await get("/api/invoices", seller.cookie)).json().invoices as {
      id: string;
      pdfPath: string;
    }[];
    const pdf = await get(list[0]!.pdfPath, seller.cookie);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    const other = await signUp(t);
    expect((await get(list[0]!.pdfPath, other.cookie)).statusCode).toBe(404);
    expect((await get("/api/invoices", other.cookie)).json().invoices).toEqual([]);
    expect((await get(list[0]!.pdfPath)).statusCode).toBe(401);
  });

  it("exports a period as one ZIP with one PDF per document", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const zip = await get(`/api/invoices/export.zip?from=${today}&to=${today}`, seller.cookie);
    expect(zip.statusCode, zip.body).toBe(200);
    expect(zip.headers["content-type"]).toBe("application/zip");
    const entries = await zipEntries(zip.rawPayload);
    expect(Object.keys(entries).sort()).toEqual([
      "credit-notes/ACME-CN-000001.pdf",
      "credit-notes/ACME-CN-000002.pdf",
      "invoices/ACME-000001.pdf",
      "invoices/ACME-000002-v2.pdf",
      "invoices/ACME-000003.pdf",
    ]);
    for (const bytes of Object.values(entries)) expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(await pdfText(entries["invoices/ACME-000002-v2.pdf"]!)).toContain("Иван Петров");
  });
});

describe("memberships", () => {
  it("gives the first payment and each renewal of a membership an invoice for its period", async () => {
    const files = [
      { uploadId: await upload(t, seller.cookie, "product-file", "lesson.pdf", minimalPdf(401)) },
    ];
    const created = await t.request({
      method: "POST",
      url: "/api/products",
      cookie: seller.cookie,
      body: { kind: "membership", title: "The Club", files, tiers: [{ name: "Fan", monthlyPrice: "7" }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const club = created.json() as { id: string; tiers: { id: string }[] };
    const email = buyerEmail();
    const subscribe = await t.request({
      method: "POST",
      url: "/api/checkout/subscribe",
      body: { productId: club.id, tierId: club.tiers[0]!.id, interval: "month" },
    });
    expect(subscribe.statusCode, subscribe.body).toBe(200);
    const sessionId = new URL(subscribe.json().url).pathname.split("/").pop()!;
    await control(t.emulator).payCheckout(sessionId, "4242424242424242", email);
    const membership = () =>
      t.db.selectFrom("memberships").selectAll().where("customer_email", "=", email).executeTakeFirst();
    await eventually(async () => expect((await membership())?.status).toBe("active"));
    await control(t.emulator).renew((await membership())!.stripe_subscription_id, "paid");
    const invoicesOfMember = () =>
      t.db
        .selectFrom("invoices")
        .innerJoin("orders", "orders.id", "invoices.order_id")
        .select(["invoices.number_text", "invoices.total_cents", "invoices.lines", "invoices.id"])
        .where("orders.customer_email", "=", email)
        .orderBy("invoices.number")
        .execute();
    await eventually(async () => expect(await invoicesOfMember()).toHaveLength(2));
    const [first, renewal] = await invoicesOfMember();
    expect([first!.total_cents, renewal!.total_cents]).toEqual([700, 700]);
    expect(renewal!.lines[0]).toMatchObject({ description: "The Club" });
    expect(renewal!.lines[0]!.periodStart).not.toBeNull();
    const pdf = await get(`/api/invoices/${renewal!.id}.pdf`, seller.cookie);
    expect(await pdfText(pdf.rawPayload)).toContain("Membership period");
    // The renewal's receipt links its invoice.
    await eventually(async () => {
      const receipts = await t.db
        .selectFrom("outbox_emails")
        .select("text")
        .where("to_address", "=", email)
        .where("subject", "like", "Your receipt%")
        .execute();
      expect(receipts).toHaveLength(2);
      for (const receipt of receipts)
        expect(receipt.text).toContain("Your invoice (PDF): http://localhost:3000/invoice/");
    });
  });
});
