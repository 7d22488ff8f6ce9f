import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STRIPE_TAX_CODES, TAX_MESSAGES, WITHDRAWAL_WAIVER_TEXT } from "../../src/contracts/tax";
import { minimalPdf } from "../../src/server/features/uploads/test-fixtures";
import { type CheckoutPayer, control } from "./support/emulator-control";
import { collectTax, readySeller, upload } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

// Tax on memberships, end to end: Subscribe opens Checkout with Stripe Tax and the withdrawal waiver as
// Buy Now does, the tier's Stripe price carries the store's tax behaviour and the product's tax code, and
// each paid invoice (the first, renewals) becomes an order recording Stripe's tax, the business buyer and
// the waiver, with its invoice.
let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  t = await createTestApp({ listen: true, buyerCountryHeader: "cf-ipcountry" });
  seller = await readySeller(t);
  await collectTax(t, seller, {
    headOffice: { country: "DE" },
    registrations: [{ country: "DE", type: "oss_union" }],
  });
});
afterAll(async () => {
  await t.close();
});

const saveTax = (cookie: string, body: Record<string, unknown>) =>
  t.request({ method: "PUT", url: "/api/store-tax", cookie, body });
const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
let emailCounter = 0;
const newEmail = () => `member-tax-${Date.now()}-${++emailCounter}@example.com`;

async function membershipProduct(cookie: string, monthlyPrice = "10") {
  const files = [{ uploadId: await upload(t, cookie, "product-file", "lesson.pdf", minimalPdf(403)) }];
  const response = await t.request({
    method: "POST",
    url: "/api/products",
    cookie,
    body: { kind: "membership", title: "The Tax Club", files, tiers: [{ name: "Fan", monthlyPrice }] },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; tiers: { id: string }[] };
}

function subscribe(
  product: { id: string; tiers: { id: string }[] },
  body: Record<string, unknown> = {},
  headers: Record<string, string> = { "cf-ipcountry": "DE" },
  ip?: string,
) {
  return t.request({
    method: "POST",
    url: "/api/checkout/subscribe",
    body: { productId: product.id, tierId: product.tiers[0]!.id, interval: "month", ...body },
    headers,
    ...(ip ? { ip } : {}),
  });
}

const sessionOf = (sessionId: string, account = seller.account) =>
  t.stripe.checkout.sessions.retrieve(
    sessionId,
    { expand: ["line_items.data.price.product"] },
    { stripeAccount: account },
  );
const membershipOf = (email: string) =>
  t.db.selectFrom("memberships").selectAll().where("customer_email", "=", email).executeTakeFirst();
const ordersOf = (membershipId: string) =>
  t.db
    .selectFrom("orders")
    .selectAll()
    .where("membership_id", "=", membershipId)
    .orderBy("created_at")
    .execute();
const invoiceOf = (orderId: string) =>
  t.db
    .selectFrom("invoices")
    .selectAll()
    .where("order_id", "=", orderId)
    .where("kind", "=", "invoice")
    .executeTakeFirst();
const pricesOf = (tierId: string) =>
  t.db
    .selectFrom("membership_tier_prices")
    .select(["stripe_price_id", "tax_behavior", "tax_code"])
    .where("tier_id", "=", tierId)
    .orderBy("created_at")
    .execute();

const GERMAN_MEMBER = {
  name: "Anna Schmidt",
  address: { country: "DE", postal_code: "10115", line1: "Invalidenstraße 1", city: "Berlin" },
};

/** Subscribes, pays on Checkout as `payer`, and waits for the membership and its first order. */
async function becomeMember(
  product: { id: string; tiers: { id: string }[] },
  payer: CheckoutPayer,
  body: Record<string, unknown> = {},
) {
  const email = payer.email ?? newEmail();
  const response = await subscribe(product, body);
  expect(response.statusCode, response.body).toBe(200);
  const sessionId = sessionIdOf(response.json().url);
  await control(t.emulator).payCheckoutAs(sessionId, { ...payer, email });
  let orders: Awaited<ReturnType<typeof ordersOf>> = [];
  await eventually(async () => {
    const membership = await membershipOf(email);
    expect(membership).toBeDefined();
    orders = await ordersOf(membership!.id);
    expect(orders).toHaveLength(1);
  });
  return { sessionId, membership: (await membershipOf(email))!, first: orders[0]! };
}

describe("a membership of a store collecting tax", () => {
  let product: { id: string; tiers: { id: string }[] };
  beforeAll(async () => {
    product = await membershipProduct(seller.cookie);
  });

  it("opens Checkout with Stripe Tax and the waiver, on a tier price that carries the tax behaviour and code", async () => {
    const response = await subscribe(product);
    expect(response.statusCode, response.body).toBe(200);
    const session = await sessionOf(sessionIdOf(response.json().url));
    expect(session.mode).toBe("subscription");
    expect(session.automatic_tax).toMatchObject({ enabled: true, liability: { type: "self" } });
    expect(session.billing_address_collection).toBe("required");
    expect(session.consent_collection?.terms_of_service).toBe("required");
    expect(session.custom_text.terms_of_service_acceptance?.message).toBe(WITHDRAWAL_WAIVER_TEXT);
    const price = session.line_items?.data[0]?.price;
    expect(price?.tax_behavior).toBe("exclusive");
    expect((price?.product as Stripe.Product | undefined)?.tax_code).toBe(STRIPE_TAX_CODES.ebook);
    expect(await pricesOf(product.tiers[0]!.id)).toEqual([
      { stripe_price_id: price?.id, tax_behavior: "exclusive", tax_code: STRIPE_TAX_CODES.ebook },
    ]);
    // The checkout keeps the waiver's wording asked.
    const checkout = await t.db
      .selectFrom("checkouts")
      .select("withdrawal_waiver")
      .where("stripe_session_id", "=", session.id)
      .executeTakeFirstOrThrow();
    expect(checkout.withdrawal_waiver).toBe(WITHDRAWAL_WAIVER_TEXT);
  });

  it("records the first invoice's tax and the waiver on its order, and invoices it with the tax line", async () => {
    const { membership, first } = await becomeMember(product, GERMAN_MEMBER);
    expect(first).toMatchObject({
      amount_cents: 1190,
      tax_cents: 190,
      tax_behavior: "exclusive",
      tax_rate: "19",
      tax_type: "vat",
      tax_jurisdiction: "DE",
      taxability_reason: "standard_rated",
      buyer_country: "DE",
      buyer_name: "Anna Schmidt",
      reverse_charge: false,
      withdrawal_waiver: WITHDRAWAL_WAIVER_TEXT,
    });
    expect(first.buyer_address).toMatchObject({ city: "Berlin", country: "DE" });
    expect(first.withdrawal_waiver_at).not.toBeNull();
    // The membership keeps the waiver its Checkout took, for every later period.
    expect(membership).toMatchObject({ withdrawal_waiver: WITHDRAWAL_WAIVER_TEXT });
    const invoice = await invoiceOf(first.id);
    expect(invoice).toMatchObject({
      subtotal_cents: 1000,
      tax_cents: 190,
      total_cents: 1190,
      reverse_charge: false,
      withdrawal_waiver: WITHDRAWAL_WAIVER_TEXT,
    });
    expect(invoice?.lines[0]).toMatchObject({ netCents: 1000, taxCents: 190, totalCents: 1190 });
    // The sales table shows the tax inside the period's amount.
    const sales = (await t.request({ method: "GET", url: "/api/orders", cookie: seller.cookie })).json();
    const sale = sales.sales.find((row: { id: string }) => row.id === first.id);
    expect(sale.tax).toMatchObject({ taxCents: 190, taxRate: "19", buyerCountry: "DE" });
    // The receipt says the tax inside the amount, and what the member agreed to.
    await eventually(async () => {
      const receipt = await t.db
        .selectFrom("outbox_emails")
        .select("text")
        .where("to_address", "=", membership.customer_email)
        .where("subject", "like", "Your receipt:%")
        .executeTakeFirstOrThrow();
      expect(receipt.text).toContain("Tax: $1.90 (VAT 19% (DE)), included in the amount paid.");
      expect(receipt.text).toContain(WITHDRAWAL_WAIVER_TEXT);
    });
  });

  it("taxes a renewal the same, and its order carries the waiver of the first checkout", async () => {
    const { membership, first } = await becomeMember(product, GERMAN_MEMBER);
    await control(t.emulator).renew(membership.stripe_subscription_id, "paid");
    let renewal: Awaited<ReturnType<typeof ordersOf>>[number] | undefined;
    await eventually(async () => {
      const orders = await ordersOf(membership.id);
      expect(orders).toHaveLength(2);
      renewal = orders[1];
    });
    expect(renewal).toMatchObject({
      amount_cents: 1190,
      tax_cents: 190,
      tax_rate: "19",
      tax_jurisdiction: "DE",
      taxability_reason: "standard_rated",
      buyer_country: "DE",
      withdrawal_waiver: WITHDRAWAL_WAIVER_TEXT,
    });
    expect(renewal!.withdrawal_waiver_at?.getTime()).toBe(first.withdrawal_waiver_at?.getTime());
    expect(await invoiceOf(renewal!.id)).toMatchObject({ tax_cents: 190, total_cents: 1190 });
  });

  it("makes another tier price for another tax behaviour, and reuses each", async () => {
    const tierId = product.tiers[0]!.id;
    const exclusive = (await pricesOf(tierId))[0]!.stripe_price_id;
    expect((await saveTax(seller.cookie, { taxBehavior: "inclusive" })).statusCode).toBe(200);
    try {
      const { sessionId, first } = await becomeMember(product, GERMAN_MEMBER);
      const price = (await sessionOf(sessionId)).line_items?.data[0]?.price;
      expect(price?.id).not.toBe(exclusive);
      expect(price?.tax_behavior).toBe("inclusive");
      // An inclusive price keeps its amount; the tax comes out of it.
      expect(first).toMatchObject({ amount_cents: 1000, tax_cents: 160, tax_behavior: "inclusive" });
      expect((await pricesOf(tierId)).map((row) => row.tax_behavior)).toEqual(["exclusive", "inclusive"]);
    } finally {
      await saveTax(seller.cookie, { taxBehavior: "exclusive" });
    }
    // Back to exclusive: the first price again, no new one.
    const again = await subscribe(product);
    const session = await sessionOf(sessionIdOf(again.json().url));
    expect(session.line_items?.data[0]?.price?.id).toBe(exclusive);
    expect(await pricesOf(tierId)).toHaveLength(2);
  });

  it("reverse charges a French business whose VAT number VIES knows, on every period", async () => {
    const { membership, first } = await becomeMember(
      product,
      {
        name: "Claire Martin",
        address: { country: "FR", postal_code: "75001", line1: "1 rue de Rivoli", city: "Paris" },
      },
      { businessName: "Atelier SARL", vatNumber: "FR 40 303 265 045" },
    );
    const expected = {
      amount_cents: 1000,
      tax_cents: 0,
      taxability_reason: "reverse_charge",
      reverse_charge: true,
      buyer_business_name: "Atelier SARL",
      buyer_tax_id: "FR40303265045",
      buyer_country: "FR",
    };
    expect(first).toMatchObject(expected);
    expect(first.buyer_tax_id_check).toMatchObject({ status: "valid", service: "local" });
    const customer = await t.stripe.customers.retrieve(
      membership.stripe_customer_id,
      {},
      { stripeAccount: seller.account },
    );
    expect(customer).toMatchObject({ tax_exempt: "reverse" });
    await control(t.emulator).renew(membership.stripe_subscription_id, "paid");
    await eventually(async () => expect(await ordersOf(membership.id)).toHaveLength(2));
    const [, renewal] = await ordersOf(membership.id);
    expect(renewal).toMatchObject(expected);
    expect(await invoiceOf(renewal!.id)).toMatchObject({ reverse_charge: true, tax_cents: 0 });
  });

  it("refuses a VAT number VIES does not know before anything is held", async () => {
    const checkoutsBefore = await t.db
      .selectFrom("checkouts")
      .select("id")
      .where("product_id", "=", product.id)
      .execute();
    const refused = await subscribe(product, { businessName: "Ghost GmbH", vatNumber: "DE123456000" });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: "vat_number_refused",
      message: TAX_MESSAGES.vatNumberInvalid,
    });
    const checkoutsAfter = await t.db
      .selectFrom("checkouts")
      .select("id")
      .where("product_id", "=", product.id)
      .execute();
    expect(checkoutsAfter).toHaveLength(checkoutsBefore.length);
  });

  it("says + tax on the product page, offers the business fields with each tier, and answers a refused VAT number", async () => {
    const page = await t.request({ method: "GET", url: `/product/${product.id}` });
    expect(page.body).toContain("+ tax");
    expect(page.body).toContain(`id="tier-${product.tiers[0]!.id}-business-vat"`);
    const refused = await t.request({
      method: "POST",
      url: `/product/${product.id}/subscribe`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `tierId=${product.tiers[0]!.id}&interval=month&businessName=Ghost+GmbH&vatNumber=DE123456000`,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain(TAX_MESSAGES.vatNumberInvalid.replace(/'/g, "&#x27;"));
  });

  it("asks buyers outside the EU and UK for the waiver only while the seller keeps it on", async () => {
    expect((await saveTax(seller.cookie, { waiverOutsideEu: false })).statusCode).toBe(200);
    try {
      const consentFor = async (country: string, ip: string) => {
        const response = await subscribe(product, {}, { "cf-ipcountry": country }, ip);
        expect(response.statusCode, response.body).toBe(200);
        const session = await sessionOf(sessionIdOf(response.json().url));
        return session.consent_collection?.terms_of_service ?? "none";
      };
      expect(await consentFor("US", "203.0.113.17")).toBe("none");
      expect(await consentFor("FR", "203.0.113.18")).toBe("required");
    } finally {
      await saveTax(seller.cookie, { waiverOutsideEu: true });
    }
  });
});

describe("a membership of a store not collecting tax", () => {
  it("opens Checkout without Stripe Tax, on a price without tax behaviour, and records no tax", async () => {
    const plain = await readySeller(t);
    const product = await membershipProduct(plain.cookie, "7");
    const email = newEmail();
    const response = await subscribe(product);
    expect(response.statusCode, response.body).toBe(200);
    const sessionId = sessionIdOf(response.json().url);
    const session = await sessionOf(sessionId, plain.account);
    expect(session.automatic_tax.enabled).toBe(false);
    expect(session.billing_address_collection).toBeNull();
    const price = session.line_items?.data[0]?.price;
    expect(price?.tax_behavior ?? "unspecified").toBe("unspecified");
    expect((price?.product as Stripe.Product | undefined)?.tax_code).toBeNull();
    expect(await pricesOf(product.tiers[0]!.id)).toEqual([
      { stripe_price_id: price?.id, tax_behavior: "unspecified", tax_code: "" },
    ]);
    await control(t.emulator).payCheckout(sessionId, "4242424242424242", email);
    let orders: Awaited<ReturnType<typeof ordersOf>> = [];
    await eventually(async () => {
      const membership = await membershipOf(email);
      expect(membership).toBeDefined();
      orders = await ordersOf(membership!.id);
      expect(orders).toHaveLength(1);
    });
    expect(orders[0]).toMatchObject({
      amount_cents: 700,
      tax_cents: 0,
      tax_rate: null,
      taxability_reason: null,
      reverse_charge: false,
    });
    expect(await invoiceOf(orders[0]!.id)).toMatchObject({ tax_cents: 0, total_cents: 700 });
  });
});
