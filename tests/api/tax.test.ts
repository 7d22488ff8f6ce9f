import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STRIPE_TAX_CODES, TAX_MESSAGES, WITHDRAWAL_WAIVER_TEXT } from "../../src/contracts/tax";
import { type CheckoutPayer, control } from "./support/emulator-control";
import { createProduct, readySeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

// Tax at checkout, end to end: the seller's Stripe Tax (settings and registrations on their connected
// account in the emulator), the store's settings, Checkout with automatic tax, business buyers checked
// with the VAT stand-in, the withdrawal waiver, and what the order records of Stripe's answer.
let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  t = await createTestApp({ listen: true, buyerCountryHeader: "cf-ipcountry" });
  seller = await readySeller(t);
});
afterAll(async () => {
  await t.close();
});

const taxSettings = () => t.request({ method: "GET", url: "/api/store-tax", cookie: seller.cookie });
const saveTax = (body: Record<string, unknown>) =>
  t.request({ method: "PUT", url: "/api/store-tax", cookie: seller.cookie, body });
const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const checkoutsOf = (productId: string) =>
  t.db.selectFrom("checkouts").selectAll().where("product_id", "=", productId).execute();

async function buy(
  productId: string,
  payer: CheckoutPayer,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const response = await t.request({
    method: "POST",
    url: "/api/checkout",
    body: { productId, ...body },
    headers: { "cf-ipcountry": "DE", ...headers },
  });
  expect(response.statusCode, response.body).toBe(200);
  const sessionId = sessionIdOf(response.json().url);
  await control(t.emulator).payCheckoutAs(sessionId, payer);
  let order: Awaited<ReturnType<typeof orderOf>>;
  await eventually(async () => {
    order = await orderOf(sessionId);
    expect(order).toBeDefined();
  });
  return order!;
}
const orderOf = (sessionId: string) =>
  t.db.selectFrom("orders").selectAll().where("stripe_session_id", "=", sessionId).executeTakeFirst();

const GERMAN_CONSUMER = {
  email: "anna@example.de",
  name: "Anna Schmidt",
  address: { country: "DE", postal_code: "10115", line1: "Invalidenstraße 1", city: "Berlin" },
};

describe("before Stripe Tax is ready", () => {
  it("shows what is missing with links to the seller's Stripe dashboard, and refuses to collect", async () => {
    const settings = (await taxSettings()).json();
    expect(settings).toMatchObject({
      collectTax: false,
      stripeTaxStatus: "pending",
      taxBehavior: "exclusive",
    });
    const headOffice = settings.checklist.find((item: { key: string }) => item.key === "head_office");
    expect(headOffice.done).toBe(false);
    expect(headOffice.fixUrl).toBe(`${t.emulator.url}/dashboard/tax?account=${seller.account}`);
    const refused = await saveTax({ collectTax: true, legalName: "Studio LLC" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: "tax_not_active", message: TAX_MESSAGES.notActive });
    // Nothing of the refused request was kept.
    expect((await taxSettings()).json()).toMatchObject({ collectTax: false, legalName: null });
  });

  it("refuses bad settings with their message and keeps nothing", async () => {
    const refused = await saveTax({ invoicePrefix: "INV 2026 ✓" });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(TAX_MESSAGES.invoicePrefixShape);
    expect((await taxSettings()).json().invoicePrefix).toBe("INV-");
  });
});

describe("a US creator collecting tax", () => {
  let productId: string;
  beforeAll(async () => {
    const emulator = control(t.emulator);
    await emulator.setTaxHeadOffice(seller.account, { country: "US", state: "NY" });
    await emulator.addTaxRegistration(seller.account, { country: "IE", type: "oss_non_union" });
    await emulator.addTaxRegistration(seller.account, {
      country: "US",
      state: "NY",
      type: "state_sales_tax",
    });
    // tax.settings.updated reaches the app, which reads Stripe back.
    await eventually(async () => {
      const row = await t.db
        .selectFrom("store_tax_settings")
        .select(["stripe_tax_status", "head_office_country"])
        .where("seller_id", "=", seller.userId)
        .executeTakeFirst();
      expect(row).toEqual({ stripe_tax_status: "active", head_office_country: "US" });
    });
    const saved = await saveTax({ collectTax: true, taxBehavior: "exclusive", legalName: "Studio LLC" });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ collectTax: true, stripeTaxStatus: "active" });
    expect(saved.json().checklist.every((item: { done: boolean }) => item.done)).toBe(true);
    productId = (await createProduct(t, seller.cookie, { price: "20.00" }, { cover: false })).id;
  });

  it("says on the product page that tax is added, and offers the business fields", async () => {
    const page = await t.request({ method: "GET", url: `/product/${productId}` });
    expect(page.body).toContain("+ tax");
    expect(page.body).toContain('name="vatNumber"');
  });

  it("adds German VAT to an exclusive price and records Stripe's answer on the order", async () => {
    const order = await buy(productId, GERMAN_CONSUMER);
    expect(order).toMatchObject({
      amount_cents: 2380,
      tax_cents: 380,
      tax_rate: "19",
      tax_type: "vat",
      taxability_reason: "standard_rated",
      tax_behavior: "exclusive",
      buyer_country: "DE",
      buyer_name: "Anna Schmidt",
      reverse_charge: false,
      withdrawal_waiver: WITHDRAWAL_WAIVER_TEXT,
    });
    // The session asked Stripe for tax on an e-book (a PDF), with the waiver required.
    const session = await t.stripe.checkout.sessions.retrieve(
      order.stripe_session_id,
      { expand: ["line_items.data.price.product"] },
      { stripeAccount: seller.account },
    );
    expect(session.automatic_tax.enabled).toBe(true);
    expect(session.consent_collection?.terms_of_service).toBe("required");
    expect(session.custom_text.terms_of_service_acceptance?.message).toBe(WITHDRAWAL_WAIVER_TEXT);
    const product = session.line_items?.data[0]?.price?.product;
    expect(typeof product === "object" && product && "tax_code" in product ? product.tax_code : null).toBe(
      STRIPE_TAX_CODES.ebook,
    );
    // The sales table and the seller API carry it.
    const sales = (await t.request({ method: "GET", url: "/api/orders", cookie: seller.cookie })).json();
    const sale = sales.sales.find((row: { id: string }) => row.id === order.id);
    expect(sale.tax).toMatchObject({
      taxCents: 380,
      taxRate: "19",
      buyerCountry: "DE",
      reverseCharge: false,
    });
    const csv = await t.request({
      method: "GET",
      url: "/api/orders/export.csv?tz=UTC",
      cookie: seller.cookie,
    });
    expect(csv.body.split("\n")[0]).toContain("Tax,Tax Rate,Tax Jurisdiction,Buyer Country,Tax Note");
    expect(csv.body).toContain("23.80");
    expect(csv.body).toContain(",3.80,19,");
  });

  it("rounds New York's 8.875% half up to the cent", async () => {
    const cheap = (await createProduct(t, seller.cookie, { price: "9.99" }, { cover: false })).id;
    const order = await buy(cheap, {
      email: "ny@example.com",
      address: { country: "US", state: "NY", postal_code: "10001", line1: "1 Main St", city: "New York" },
    });
    expect(order).toMatchObject({ amount_cents: 1088, tax_cents: 89, tax_rate: "8.875", buyer_state: "NY" });
  });

  it("records a sale where the seller is not registered as not collected, with no tax", async () => {
    const order = await buy(productId, {
      email: "kenji@example.jp",
      address: { country: "JP", postal_code: "100-0001", line1: "1-1 Chiyoda", city: "Tokyo" },
    });
    expect(order).toMatchObject({
      amount_cents: 2000,
      tax_cents: 0,
      taxability_reason: "not_collecting",
      buyer_country: "JP",
    });
  });

  it("keeps an inclusive price and takes the tax out of it, to the cent", async () => {
    expect((await saveTax({ taxBehavior: "inclusive" })).statusCode).toBe(200);
    try {
      const page = await t.request({ method: "GET", url: `/product/${productId}` });
      expect(page.body).toContain("incl. VAT where applicable");
      const order = await buy(productId, { ...GERMAN_CONSUMER, email: "inclusive@example.de" });
      expect(order).toMatchObject({ amount_cents: 2000, tax_cents: 319, tax_behavior: "inclusive" });
    } finally {
      await saveTax({ taxBehavior: "exclusive" });
    }
  });

  it("reverse charges a French business whose VAT number VIES knows, and keeps the check", async () => {
    const order = await buy(
      productId,
      {
        email: "compta@example.fr",
        address: { country: "FR", postal_code: "75001", line1: "1 rue de Rivoli", city: "Paris" },
      },
      { businessName: "Atelier SARL", vatNumber: "FR 40 303 265 045" },
    );
    expect(order).toMatchObject({
      amount_cents: 2000,
      tax_cents: 0,
      taxability_reason: "reverse_charge",
      reverse_charge: true,
      buyer_business_name: "Atelier SARL",
      buyer_tax_id: "FR40303265045",
    });
    expect(order.buyer_tax_id_check).toMatchObject({ status: "valid", service: "local" });
  });

  it("refuses a VAT number VIES does not know, or a badly shaped one, before anything is held", async () => {
    const customersBefore = (await t.stripe.customers.list({ limit: 100 }, { stripeAccount: seller.account }))
      .data.length;
    const checkoutsBefore = (await checkoutsOf(productId)).length;
    const attempt = (body: Record<string, unknown>) =>
      t.request({ method: "POST", url: "/api/checkout", body: { productId, ...body } });

    const unknown = await attempt({ businessName: "Ghost GmbH", vatNumber: "DE123456000" });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({
      code: "vat_number_refused",
      message: TAX_MESSAGES.vatNumberInvalid,
    });
    const shape = await attempt({ businessName: "Ghost GmbH", vatNumber: "123" });
    expect(shape.json()).toMatchObject({ code: "vat_number_refused", message: TAX_MESSAGES.vatNumberShape });
    const down = await attempt({ businessName: "Ghost GmbH", vatNumber: "DE123456999" });
    expect(down.statusCode).toBe(503);
    expect(down.json().message).toBe(TAX_MESSAGES.vatNumberUnavailable);
    const nameless = await attempt({ vatNumber: "DE123456789" });
    expect(nameless.json()).toMatchObject({ code: "business_name_required" });

    expect((await checkoutsOf(productId)).length).toBe(checkoutsBefore);
    const customersAfter = (await t.stripe.customers.list({ limit: 100 }, { stripeAccount: seller.account }))
      .data.length;
    expect(customersAfter).toBe(customersBefore);
  });

  it("shows the product page again with the refused VAT number and its message", async () => {
    const page = await t.request({
      method: "POST",
      url: `/product/${productId}/buy`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "businessName=Ghost+GmbH&vatNumber=DE123456000",
    });
    expect(page.statusCode).toBe(422);
    expect(page.body).toContain(TAX_MESSAGES.vatNumberInvalid.replace(/'/g, "&#x27;"));
    expect(page.body).toContain('value="DE123456000"');
  });

  it("refunds the tax with the price", async () => {
    const order = await buy(productId, { ...GERMAN_CONSUMER, email: "refund@example.de" });
    const refund = await t.request({
      method: "POST",
      url: `/api/orders/${order.id}/refund`,
      cookie: seller.cookie,
    });
    expect(refund.statusCode, refund.body).toBe(204);
    const refunds = await t.stripe.refunds.list(
      { payment_intent: order.payment_intent_id! },
      { stripeAccount: seller.account },
    );
    expect(refunds.data.map((r) => r.amount)).toEqual([2380]);
  });
});

describe("the withdrawal waiver", () => {
  it("is asked of buyers outside the EU and UK only while the seller keeps it on; always inside", async () => {
    const productId = (await createProduct(t, seller.cookie, { price: "5.00" }, { cover: false })).id;
    expect((await saveTax({ waiverOutsideEu: false })).statusCode).toBe(200);
    try {
      const sessionFor = async (country: string) => {
        const response = await t.request({
          method: "POST",
          url: "/api/checkout",
          body: { productId },
          headers: { "cf-ipcountry": country },
          ip: country === "US" ? "203.0.113.7" : "203.0.113.8",
        });
        expect(response.statusCode, response.body).toBe(200);
        return t.stripe.checkout.sessions.retrieve(
          sessionIdOf(response.json().url),
          {},
          {
            stripeAccount: seller.account,
          },
        );
      };
      expect((await sessionFor("US")).consent_collection?.terms_of_service ?? "none").toBe("none");
      expect((await sessionFor("DE")).consent_collection?.terms_of_service).toBe("required");
    } finally {
      await saveTax({ waiverOutsideEu: true });
    }
  });
});
