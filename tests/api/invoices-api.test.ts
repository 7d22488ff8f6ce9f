import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVOICE_MESSAGES, REVERSE_CHARGE_NOTE } from "../../src/contracts/invoices";
import { TAX_MESSAGES } from "../../src/contracts/tax";
import { localVatChecker, type VatNumberChecker } from "../../src/server/adapters/vat-check/vat-checker";
import type { Resolver } from "../../src/server/features/seller-webhooks/address-policy";
import { snakeCaseKeys } from "../../src/server/features/seller-webhooks/queue-events";
import { type CheckoutPayer, control } from "./support/emulator-control";
import { pdfText } from "./support/pdf-text";
import { collectTax, createProduct, readySeller, subscribedSeller } from "./support/sellers";
import { APP_URL, createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";
import { startWebhookReceiver, verifyStandardWebhook } from "./support/webhook-receiver";

// Issue 25's remaining pieces, end to end: invoices in the seller API (list, one, PDF), the
// invoice.issued webhook carrying the API's JSON, and a corrected VAT ID checked with the VAT checker
// (the local stand-in: numbers ending in 000 are not registered, in 999 find the service down).

/** The local stand-in, counting the numbers it is asked about: a limited request must not reach it. */
const asked: string[] = [];
const countingChecker: VatNumberChecker = {
  check(vat, now) {
    asked.push(`${vat.prefix}${vat.number}`);
    return localVatChecker.check(vat, now);
  },
};

const testResolver: Resolver = async () => {
  throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
};

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let keyA: string;
let keyB: string;
let webhookSecret: string;
let productId: string;
/** A German consumer's taxed sale (refunded later) and a French business's reverse-charged one. */
let consumerOrder: string;
let businessOrder: string;

async function createKey(cookie: string) {
  const response = await t.request({ method: "POST", url: "/api/api-keys", cookie, body: { name: "books" } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().secret as string;
}

beforeAll(async () => {
  t = await createTestApp({
    listen: true,
    vatChecker: countingChecker,
    webhookPolicy: { requireHttps: false, allowPrivateHosts: ["127.0.0.1"] },
    webhookResolver: testResolver,
  });
  receiver = await startWebhookReceiver();
  const other = await subscribedSeller(t);
  seller = await readySeller(t);
  [keyA, keyB] = await Promise.all([createKey(seller.cookie), createKey(other.cookie)]);

  const endpoint = await t.request({
    method: "POST",
    url: "/api/webhook-endpoints",
    cookie: seller.cookie,
    body: { url: `${receiver.url}/invoices`, events: ["invoice.issued"] },
  });
  expect(endpoint.statusCode, endpoint.body).toBe(201);
  webhookSecret = endpoint.json().secret;

  // Stripe Tax on the seller's account: a US head office, registered for EU VAT (non-Union OSS).
  await collectTax(
    t,
    seller,
    {
      headOffice: { country: "US", state: "NY" },
      registrations: [{ country: "IE", type: "oss_non_union" }],
    },
    { legalName: "Studio LLC", invoicePrefix: "ST-" },
  );
  productId = (
    await createProduct(t, seller.cookie, { title: "Field Guide", price: "20.00" }, { cover: false })
  ).id;
  consumerOrder = await buy(
    {
      email: "anna@example.de",
      name: "Anna Schmidt",
      address: { country: "DE", postal_code: "10115", line1: "Invalidenstraße 1", city: "Berlin" },
    },
    {},
  );
  businessOrder = await buy(
    {
      email: "compta@example.fr",
      address: { country: "FR", postal_code: "75001", line1: "1 rue de Rivoli", city: "Paris" },
    },
    { businessName: "Atelier SARL", vatNumber: "FR40303265045" },
  );
  const refund = await t.request({
    method: "POST",
    url: `/api/orders/${consumerOrder}/refund`,
    cookie: seller.cookie,
  });
  expect(refund.statusCode, refund.body).toBe(204);
});
afterAll(async () => {
  await receiver?.close();
  await t.close();
});

async function buy(payer: CheckoutPayer, business: Record<string, string>): Promise<string> {
  const checkout = await t.request({
    method: "POST",
    url: "/api/checkout",
    body: { productId, ...business },
  });
  expect(checkout.statusCode, checkout.body).toBe(200);
  const sessionId = new URL(checkout.json().url).pathname.split("/").pop()!;
  await control(t.emulator).payCheckoutAs(sessionId, payer);
  let orderId = "";
  await eventually(async () => {
    const order = await t.db
      .selectFrom("orders")
      .select("id")
      .where("stripe_session_id", "=", sessionId)
      .executeTakeFirst();
    expect(order).toBeDefined();
    orderId = order!.id;
  });
  return orderId;
}

/** A call as a seller's server makes it: the key, no cookie, no Origin. */
const v1 = (key: string | null, url: string) =>
  t.app.server.inject({
    method: "GET",
    url,
    remoteAddress: "203.0.113.9",
    headers: key === null ? {} : { authorization: `Bearer ${key}` },
  });

const documentsOf = (orderId: string) =>
  t.db
    .selectFrom("invoices")
    .selectAll()
    .where("order_id", "=", orderId)
    .orderBy("kind")
    .orderBy("version")
    .execute();

/** The buyer's billing-details page of an order (the signed link from the success page). */
async function billingPathOf(orderId: string): Promise<string> {
  const order = await t.db
    .selectFrom("orders")
    .select("stripe_session_id")
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  const lookup = await t.request({ method: "GET", url: `/api/orders/by-session/${order.stripe_session_id}` });
  expect(lookup.statusCode, lookup.body).toBe(200);
  return lookup.json().purchase.invoice.billingPath;
}

const correct = (path: string, fields: Record<string, string>, ip?: string) =>
  t.request({
    method: "POST",
    url: path,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    ...(ip ? { ip } : {}),
  });

/** invoice.issued deliveries received, examples included (they carry `test: true`). */
const invoiceWebhooks = () =>
  receiver.received.filter((webhook) => JSON.parse(webhook.body).type === "invoice.issued");

/** The HTML-escaped text a server-rendered page shows for a message. */
const shown = (message: string) => message.replace(/'/g, "&#x27;");

describe("invoices in the seller API", () => {
  it("lists the seller's invoices and credit notes newest first, with their numbers, parties and amounts", async () => {
    const list = await v1(keyA, "/api/v1/invoices");
    expect(list.statusCode, list.body).toBe(200);
    const { invoices, nextCursor } = list.json();
    expect(nextCursor).toBeNull();
    expect(invoices.map((row: { number: string }) => row.number)).toEqual([
      "ST-CN-000001",
      "ST-000002",
      "ST-000001",
    ]);
    const [credit, business, consumer] = invoices;
    expect(consumer).toEqual({
      id: expect.stringMatching(/^inv_/),
      kind: "invoice",
      number: "ST-000001",
      version: 1,
      issuedAt: expect.any(String),
      paidAt: expect.any(String),
      orderId: consumerOrder,
      creditedInvoiceId: null,
      seller: expect.objectContaining({ name: "Studio LLC" }),
      buyer: {
        name: "Anna Schmidt",
        businessName: null,
        address: ["Invalidenstraße 1", "10115 Berlin", "Germany"],
        country: "DE",
        taxId: null,
        taxIdCheckedAt: null,
        email: "anna@example.de",
      },
      lines: [
        {
          description: "Field Guide",
          periodStart: null,
          periodEnd: null,
          quantity: 1,
          netCents: 2000,
          taxCents: 380,
          totalCents: 2380,
          taxLabel: "VAT 19% (DE)",
        },
      ],
      currency: "usd",
      netCents: 2000,
      taxCents: 380,
      totalCents: 2380,
      reverseCharge: false,
      taxNote: null,
      pdfUrl: `${APP_URL}/api/v1/invoices/${consumer.id}/pdf`,
    });
    expect(business).toMatchObject({
      orderId: businessOrder,
      taxCents: 0,
      totalCents: 2000,
      reverseCharge: true,
      taxNote: REVERSE_CHARGE_NOTE,
      buyer: { businessName: "Atelier SARL", taxId: "FR40303265045", country: "FR" },
    });
    expect(business.buyer.taxIdCheckedAt).toEqual(expect.any(String));
    expect(credit).toMatchObject({
      kind: "credit_note",
      orderId: consumerOrder,
      creditedInvoiceId: consumer.id,
      netCents: -2000,
      taxCents: -380,
      totalCents: -2380,
    });
  });

  it("filters by sale, kind and time, and pages with the same filters", async () => {
    const numbers = async (query: string) => {
      const response = await v1(keyA, `/api/v1/invoices?${query}`);
      expect(response.statusCode, `${query}: ${response.body}`).toBe(200);
      return response.json().invoices.map((row: { number: string }) => row.number);
    };
    expect(await numbers(`orderId=${consumerOrder}`)).toEqual(["ST-CN-000001", "ST-000001"]);
    expect(await numbers(`orderId=${businessOrder}&kind=credit_note`)).toEqual([]);
    expect(await numbers("kind=invoice")).toEqual(["ST-000002", "ST-000001"]);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(await numbers(`from=${tomorrow}`)).toEqual([]);
    expect(await numbers("to=2020-01-01")).toEqual([]);

    const first = (await v1(keyA, "/api/v1/invoices?kind=invoice&limit=1")).json();
    expect(first.invoices.map((row: { number: string }) => row.number)).toEqual(["ST-000002"]);
    const second = (
      await v1(keyA, `/api/v1/invoices?kind=invoice&limit=1&before=${first.nextCursor}`)
    ).json();
    expect([second.invoices[0].number, second.nextCursor]).toEqual(["ST-000001", null]);

    for (const [query, message] of [
      ["kind=receipt", undefined],
      ["from=2026-03-01&to=2026-02-01", "from must be before to"],
      ["limit=0", "limit must be a whole number from 1 to 100"],
      ["before=garbage", "Invalid cursor"],
    ] as const) {
      const refused = await v1(keyA, `/api/v1/invoices?${query}`);
      expect(refused.statusCode, query).toBe(400);
      if (message) expect(refused.json().message, query).toBe(message);
    }
  });

  it("reads one document and serves its PDF", async () => {
    const [invoice] = await documentsOf(businessOrder);
    const one = await v1(keyA, `/api/v1/invoices/${invoice!.id}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ id: invoice!.id, number: "ST-000002", taxNote: REVERSE_CHARGE_NOTE });

    const pdf = await v1(keyA, new URL(one.json().pdfUrl).pathname);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.headers["content-disposition"]).toBe('inline; filename="ST-000002.pdf"');
    expect(pdf.headers["cache-control"]).toBe("private, no-store");
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    const text = (await pdfText(pdf.rawPayload)).replaceAll("\n", "");
    expect(text).toContain("ST-000002");
    expect(text).toContain("Atelier SARL");
    expect(text).toContain("Reverse charge");
  });

  it("answers 404 for another seller's document, and 401 without a key", async () => {
    const [invoice] = await documentsOf(consumerOrder);
    for (const url of [`/api/v1/invoices/${invoice!.id}`, `/api/v1/invoices/${invoice!.id}/pdf`]) {
      const foreign = await v1(keyB, url);
      expect(foreign.statusCode, url).toBe(404);
      expect(foreign.json()).toEqual({ code: "not_found", message: "Invoice not found" });
      expect((await v1(null, url)).statusCode).toBe(401);
    }
    expect((await v1(keyB, "/api/v1/invoices")).json()).toEqual({ invoices: [], nextCursor: null });
    expect((await v1(keyB, `/api/v1/invoices?orderId=${consumerOrder}`)).json().invoices).toEqual([]);
    expect((await v1(keyA, "/api/v1/invoices/inv_missing")).statusCode).toBe(404);
  });

  it("names each sale's invoice in the API's sales", async () => {
    const [invoice] = await documentsOf(businessOrder);
    const sale = (await v1(keyA, `/api/v1/sales/${businessOrder}`)).json();
    expect(sale.invoice).toEqual({ id: invoice!.id, number: "ST-000002" });
    const sales = (await v1(keyA, "/api/v1/sales")).json().sales as { id: string; invoice: unknown }[];
    expect(sales.find((row) => row.id === consumerOrder)?.invoice).toEqual({
      id: expect.stringMatching(/^inv_/),
      number: "ST-000001",
    });
    // A free claim has no invoice.
    const free = await createProduct(
      t,
      seller.cookie,
      { price: "0", title: "Free Sample" },
      { cover: false },
    );
    const claim = await t.request({
      method: "POST",
      url: "/api/checkout/free",
      body: { productId: free.id, email: "sample@example.com" },
    });
    expect(claim.statusCode, claim.body).toBe(202);
    const freeOrder = await t.db
      .selectFrom("orders")
      .select("id")
      .where("product_id", "=", free.id)
      .executeTakeFirstOrThrow();
    expect((await v1(keyA, `/api/v1/sales/${freeOrder.id}`)).json().invoice).toBeNull();
  });

  it("documents the three routes in the OpenAPI document, the PDF as application/pdf", async () => {
    const document = (await t.app.server.inject({ method: "GET", url: "/api/v1/openapi.json" })).json();
    expect(document.paths["/api/v1/invoices"].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      "limit",
      "before",
      "orderId",
      "kind",
      "from",
      "to",
    ]);
    expect(document.paths["/api/v1/invoices/{id}"].get.responses["200"].content).toEqual({
      "application/json": { schema: { $ref: "#/components/schemas/Invoice" } },
    });
    expect(document.paths["/api/v1/invoices/{id}/pdf"].get.responses["200"].content).toEqual({
      "application/pdf": { schema: { type: "string", contentMediaType: "application/pdf" } },
    });
    expect(document.paths["/api/v1/invoices/{id}/pdf"].get.responses).toHaveProperty("404");
    expect(document.components.schemas.Invoice.required).toEqual(
      expect.arrayContaining([
        "number",
        "kind",
        "version",
        "issuedAt",
        "orderId",
        "buyer",
        "lines",
        "pdfUrl",
      ]),
    );
    expect(document.components.schemas.Sale.properties).toHaveProperty("invoice");
  });
});

describe("the invoice.issued webhook", () => {
  it("is sent for each invoice and credit note, signed, carrying the API's JSON of the document", async () => {
    await eventually(async () => expect(invoiceWebhooks()).toHaveLength(3));
    const documents = [...(await documentsOf(consumerOrder)), ...(await documentsOf(businessOrder))];
    for (const webhook of invoiceWebhooks()) {
      expect(webhook.path).toBe("/invoices");
      expect(verifyStandardWebhook(webhookSecret, webhook)).toBe(true);
      const body = JSON.parse(webhook.body);
      expect(body).toEqual({
        type: "invoice.issued",
        timestamp: expect.any(String),
        data: expect.any(Object),
      });
      expect(documents.map((row) => row.id)).toContain(body.data.id);
      const api = await v1(keyA, `/api/v1/invoices/${body.data.id}`);
      // The API's document, in the webhooks' snake_case.
      expect(body.data).toEqual(snakeCaseKeys(api.json()));
      expect(body.data.net_cents + body.data.tax_cents).toBe(body.data.total_cents);
    }
    const kinds = invoiceWebhooks().map((webhook) => JSON.parse(webhook.body).data.kind);
    expect(kinds.sort()).toEqual(["credit_note", "invoice", "invoice"]);
  });
});

describe("the invoice.issued example", () => {
  it("can be chosen and sent as an example, marked as a test, in the invoice's shape", async () => {
    const endpoints = await t.request({
      method: "GET",
      url: "/api/webhook-endpoints",
      cookie: seller.cookie,
    });
    const endpoint = endpoints.json().endpoints[0] as { id: string; events: string[] };
    expect(endpoint.events).toEqual(["invoice.issued"]);
    const sent = await t.request({
      method: "POST",
      url: `/api/webhook-endpoints/${endpoint.id}/examples`,
      cookie: seller.cookie,
      body: { eventType: "invoice.issued" },
    });
    expect(sent.statusCode, sent.body).toBe(202);
    await eventually(async () =>
      expect(invoiceWebhooks().some((webhook) => JSON.parse(webhook.body).test === true)).toBe(true),
    );
    const example = JSON.parse(invoiceWebhooks().find((webhook) => JSON.parse(webhook.body).test)!.body);
    expect(example.data).toMatchObject({ id: "inv_example", kind: "invoice", order_id: "ord_example" });
    expect(Object.keys(example.data).sort()).toEqual(
      Object.keys(snakeCaseKeys((await v1(keyA, "/api/v1/invoices?limit=1")).json().invoices[0])).sort(),
    );
  });
});

describe("a corrected VAT ID", () => {
  it("refuses a number VIES does not know, or VIES being down, and changes nothing", async () => {
    const path = await billingPathOf(businessOrder);
    const before = await documentsOf(businessOrder);
    const webhooksBefore = invoiceWebhooks().length;

    const unknown = await correct(path, {
      businessName: "Atelier SARL",
      country: "FR",
      taxId: "FR 12 345 678 000",
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.body).toContain(shown(INVOICE_MESSAGES.taxIdNotRegistered));
    // Shown at the field, with what the buyer typed.
    expect(unknown.body).toMatch(/id="billing-taxId-problem" role="alert"/);
    expect(unknown.body).toContain('value="FR 12 345 678 000"');
    expect(asked).toContain("FR12345678000");

    const down = await correct(path, { businessName: "Atelier SARL", country: "FR", taxId: "FR12345678999" });
    expect(down.statusCode).toBe(503);
    expect(down.body).toContain(shown(INVOICE_MESSAGES.taxIdCheckUnavailable));

    const shape = await correct(path, { businessName: "Atelier SARL", country: "FR", taxId: "FR1" });
    expect(shape.statusCode).toBe(422);
    expect(shape.body).toContain(shown(INVOICE_MESSAGES.taxIdEuShape));
    expect(asked).not.toContain("FR1");

    expect(await documentsOf(businessOrder)).toEqual(before);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(invoiceWebhooks()).toHaveLength(webhooksBefore);
  });

  it("records the check of a registered number on the new version, keeps the tax, and sends invoice.issued", async () => {
    const path = await billingPathOf(businessOrder);
    const saved = await correct(path, {
      name: "Claire Martin",
      businessName: "Atelier Martin SARL",
      line1: "2 rue de Rivoli",
      postalCode: "75001",
      city: "Paris",
      country: "FR",
      taxId: "FR 83 404 833 048",
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).toContain(INVOICE_MESSAGES.corrected);
    const [first, second] = await documentsOf(businessOrder);
    expect(second).toMatchObject({
      version: 2,
      number_text: first!.number_text,
      tax_cents: first!.tax_cents,
      total_cents: first!.total_cents,
      reverse_charge: first!.reverse_charge,
    });
    expect(second!.lines).toEqual(first!.lines);
    expect(second!.buyer).toMatchObject({
      businessName: "Atelier Martin SARL",
      taxId: "FR83404833048",
      taxIdCheck: { status: "valid", service: "local", reference: "LOCAL-FR83404833048" },
    });
    expect(second!.buyer.taxIdCheckedAt).toBe(second!.buyer.taxIdCheck!.checkedAt);
    const text = await pdfText((await v1(keyA, `/api/v1/invoices/${second!.id}/pdf`)).rawPayload);
    expect(text).toContain("Corrected invoice, version 2");
    expect(text).toContain("VAT number checked with VIES on");

    // The API lists the newest version; its webhook carries it.
    const listed = (await v1(keyA, `/api/v1/invoices?orderId=${businessOrder}`)).json().invoices;
    expect(listed.map((row: { id: string; version: number }) => [row.id, row.version])).toEqual([
      [second!.id, 2],
    ]);
    await eventually(async () =>
      expect(invoiceWebhooks().map((webhook) => JSON.parse(webhook.body).data.id)).toContain(second!.id),
    );
    const webhook = invoiceWebhooks().find((received) => JSON.parse(received.body).data.id === second!.id)!;
    expect(verifyStandardWebhook(webhookSecret, webhook)).toBe(true);
    expect(JSON.parse(webhook.body).data).toEqual(snakeCaseKeys(listed[0]));
    expect(JSON.parse(webhook.body).data.buyer.tax_id_checked_at).toEqual(expect.any(String));
  });

  it("asks nothing for the number already on the invoice or a tax ID from outside the EU", async () => {
    const path = await billingPathOf(businessOrder);
    const askedBefore = asked.length;
    const renamed = await correct(path, {
      name: "Claire Martin-Dubois",
      businessName: "Atelier Martin SARL",
      country: "FR",
      taxId: "FR83404833048",
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const third = (await documentsOf(businessOrder)).at(-1)!;
    expect(third.version).toBe(3);
    // The check still stands for the number it checked.
    expect(third.buyer.taxIdCheck).toMatchObject({ reference: "LOCAL-FR83404833048" });

    const swiss = await correct(path, {
      name: "Claire Martin-Dubois",
      businessName: "Atelier Martin SA",
      country: "CH",
      taxId: "CHE-123.456.788",
    });
    expect(swiss.statusCode, swiss.body).toBe(200);
    const fourth = (await documentsOf(businessOrder)).at(-1)!;
    expect(fourth.buyer).toMatchObject({ taxId: "CHE123456788", taxIdCheckedAt: null, taxIdCheck: null });
    expect(asked.length).toBe(askedBefore);
  });

  it("counts the network's limit before asking: past 10 checks in 10 minutes, VIES is not asked", async () => {
    // A new German consumer's sale: the refunded one can no longer be corrected.
    const orderId = await buy(
      {
        email: "anna-again@example.de",
        name: "Anna Schmidt",
        address: { country: "DE", postal_code: "10115", line1: "Invalidenstraße 1", city: "Berlin" },
      },
      {},
    );
    const path = await billingPathOf(orderId);
    const ip = "198.51.100.25";
    const askedBefore = asked.length;
    for (let attempt = 0; attempt < 10; attempt++) {
      const refused = await correct(
        path,
        { name: "Anna Schmidt", country: "DE", taxId: `DE12345${attempt}000` },
        ip,
      );
      expect(refused.statusCode, refused.body).toBe(422);
    }
    expect(asked.length - askedBefore).toBe(10);
    const documents = await documentsOf(orderId);

    const limited = await correct(path, { name: "Anna Schmidt", country: "DE", taxId: "DE123456789" }, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toContain(TAX_MESSAGES.tooManyVatChecks);
    expect(asked.length - askedBefore).toBe(10);
    expect(await documentsOf(orderId)).toEqual(documents);

    // Another network is not limited.
    const elsewhere = await correct(path, { name: "Anna Schmidt", country: "DE", taxId: "DE123456789" });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    expect(asked.at(-1)).toBe("DE123456789");
  });
});
