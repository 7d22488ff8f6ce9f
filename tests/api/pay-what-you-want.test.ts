import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DiscountCode } from "../../src/contracts/discounts";
import { ORDER_MESSAGES, type SalesPage } from "../../src/contracts/orders";
import { PAY_WHAT_YOU_WANT_MESSAGES, PRODUCT_MESSAGES } from "../../src/contracts/products";
import { minimalPdf } from "../../src/server/features/uploads/test-fixtures";
import { control } from "./support/emulator-control";
import { createProduct, readySeller, upload } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let account: string;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  seller = await readySeller(t);
  account = seller.account;
});
afterAll(async () => {
  await t.close();
});
afterEach(() => t.clock.reset());

let counter = 0;
const flexible = (fields: Record<string, unknown> = {}) =>
  createProduct(
    t,
    seller.cookie,
    { priceMode: "flexible", price: "5", suggestedPrice: "12", ...fields },
    { cover: false },
  );
const buyNow = (productId: string, body: Record<string, unknown> = {}, ip?: string) =>
  t.request({ method: "POST", url: "/api/checkout", body: { productId, ...body }, ...(ip ? { ip } : {}) });
const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const charged = async (url: string) =>
  (await t.stripe.checkout.sessions.retrieve(sessionIdOf(url), {}, { stripeAccount: account })).amount_total;
const checkoutsOf = (productId: string) =>
  t.db.selectFrom("checkouts").selectAll().where("product_id", "=", productId).execute();
const productCount = async () =>
  Number(
    (
      await t.db
        .selectFrom("products")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("user_id", "=", seller.userId)
        .executeTakeFirstOrThrow()
    ).n,
  );
async function pay(url: string, email: string) {
  await control(t.emulator).payCheckout(sessionIdOf(url), "4242424242424242", email);
  await eventually(async () => {
    const order = await t.db
      .selectFrom("orders")
      .selectAll()
      .where("stripe_session_id", "=", sessionIdOf(url))
      .executeTakeFirst();
    expect(order).toBeDefined();
  });
  return t.db
    .selectFrom("orders")
    .selectAll()
    .where("stripe_session_id", "=", sessionIdOf(url))
    .executeTakeFirstOrThrow();
}

describe("the seller's flexible price", () => {
  it("saves a minimum (which may be $0) and a suggestion", async () => {
    const product = await flexible();
    expect(
      (await t.request({ method: "GET", url: `/api/public/products/${product.id}` })).json(),
    ).toMatchObject({
      priceMode: "flexible",
      priceCents: 500,
      suggestedPriceCents: 1200,
    });
    const fromZero = await flexible({ price: "0", suggestedPrice: "3" });
    expect(fromZero).toMatchObject({ priceCents: 0, priceMode: "flexible", suggestedPriceCents: 300 });
  });

  it("names each wrong field and creates nothing", async () => {
    const fileUploadId = await upload(t, seller.cookie, "product-file", "g.pdf", minimalPdf());
    const before = await productCount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ suggestedPrice: "" }, PRODUCT_MESSAGES.suggestedMissing],
      [{ suggestedPrice: "4" }, PRODUCT_MESSAGES.suggestedTooLow],
      [{ suggestedPrice: "10000.01" }, PRODUCT_MESSAGES.suggestedTooHigh],
      [{ price: "10001", suggestedPrice: "10001" }, PRODUCT_MESSAGES.minimumTooHigh],
      [{ price: "0.20" }, PRODUCT_MESSAGES.priceTooLow],
      [{ suggestedPrice: "abc" }, PRODUCT_MESSAGES.invalidPrice],
    ];
    for (const [fields, message] of cases) {
      const response = await t.request({
        method: "POST",
        url: "/api/products",
        cookie: seller.cookie,
        body: {
          title: "PWYW",
          priceMode: "flexible",
          price: "5",
          suggestedPrice: "12",
          inventoryType: "unlimited",
          fileUploadId,
          ...fields,
        },
      });
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
      expect(response.json().message, JSON.stringify(fields)).toBe(message);
    }
    expect(await productCount()).toBe(before);
  });

  it("is switched on and off by an edit; a minimum alone can't pass the suggestion", async () => {
    const product = await createProduct(t, seller.cookie, { price: "9" }, { cover: false });
    const patch = (body: Record<string, unknown>) =>
      t.request({ method: "PATCH", url: `/api/products/${product.id}`, cookie: seller.cookie, body });
    expect((await patch({ priceMode: "flexible", price: "3", suggestedPrice: "8" })).json()).toMatchObject({
      priceMode: "flexible",
      priceCents: 300,
      suggestedPriceCents: 800,
    });
    const tooHigh = await patch({ price: "9" });
    expect(tooHigh.statusCode).toBe(400);
    expect(tooHigh.json().message).toBe(PRODUCT_MESSAGES.suggestedTooLow);
    expect((await patch({ price: "4" })).json()).toMatchObject({ priceCents: 400, suggestedPriceCents: 800 });
    expect((await patch({ priceMode: "fixed", price: "7" })).json()).toMatchObject({
      priceMode: "fixed",
      priceCents: 700,
      suggestedPriceCents: null,
    });
  });
});

describe("a buyer paying what they want", () => {
  it("sees $X+ and an amount field filled with the suggestion, on the product page and the store", async () => {
    const product = await flexible({ title: "Name Your Price Pack" });
    const html = (await t.request({ method: "GET", url: `/product/${product.id}` })).body;
    expect(html).toContain("$5.00+");
    expect(html).toMatch(/<input[^>]*name="amount"[^>]*>/);
    const input = /<input[^>]*name="amount"[^>]*>/.exec(html)![0];
    expect(input).toMatch(/inputmode="decimal"/i);
    expect(input).toContain('value="12.00"');
    const store = (await t.request({ method: "GET", url: `/store/${seller.userId}` })).body;
    expect(store).toContain("$5.00+");
  });

  it("pays $15 for a $5+ product: Stripe charges it, the order, sales and receipt show it", async () => {
    const product = await flexible({ title: "Fifteen Pack" });
    const response = await buyNow(product.id, { amount: "15" });
    expect(response.statusCode, response.body).toBe(200);
    const { url } = response.json() as { url: string };
    expect(await charged(url)).toBe(1500);
    const order = await pay(url, `fifteen-${++counter}@example.com`);
    expect(order.amount_cents).toBe(1500);
    const sales = (
      await t.request({ method: "GET", url: "/api/orders", cookie: seller.cookie })
    ).json() as SalesPage;
    expect(sales.sales.find((sale) => sale.id === order.id)).toMatchObject({ amountCents: 1500 });
    await eventually(async () => {
      const receipt = await t.db
        .selectFrom("outbox_emails")
        .select("text")
        .where("to_address", "=", order.customer_email)
        .executeTakeFirst();
      expect(receipt?.text).toContain("Amount paid: $15.00");
    });
  });

  it("refuses amounts below the minimum, above $10,000, between $0 and $0.50, or not a number, holding nothing", async () => {
    const product = await flexible({ inventoryType: "limited", quantityAvailable: "5" });
    const fromZero = await flexible({ price: "0", suggestedPrice: "5" });
    const cases: Array<[string, unknown, string]> = [
      [product.id, "4.99", "Please pay at least $5.00."],
      [product.id, "10000.01", PAY_WHAT_YOU_WANT_MESSAGES.amountTooHigh],
      [product.id, "abc", PAY_WHAT_YOU_WANT_MESSAGES.amountInvalid],
      [product.id, "", PAY_WHAT_YOU_WANT_MESSAGES.amountInvalid],
      [product.id, "-5", PAY_WHAT_YOU_WANT_MESSAGES.amountInvalid],
      [product.id, "5.001", PAY_WHAT_YOU_WANT_MESSAGES.amountInvalid],
      [fromZero.id, "0.30", PAY_WHAT_YOU_WANT_MESSAGES.amountBelowCardMinimum],
      [fromZero.id, "0", PAY_WHAT_YOU_WANT_MESSAGES.amountZero],
    ];
    for (const [id, amount, message] of cases) {
      const response = await buyNow(id, { amount });
      expect(response.statusCode, String(amount)).toBe(422);
      expect(response.json().message, String(amount)).toBe(message);
    }
    expect(await checkoutsOf(product.id)).toEqual([]);
    expect(await checkoutsOf(fromZero.id)).toEqual([]);
    // $10,000 exactly and "$12" are fine.
    expect(await charged((await buyNow(product.id, { amount: "10000" }, "192.0.2.1")).json().url)).toBe(
      1_000_000,
    );
    expect(await charged((await buyNow(product.id, { amount: "$12" }, "192.0.2.2")).json().url)).toBe(1200);
  });

  it("the page's form answers a refused amount with the page, the message and what was typed", async () => {
    const product = await flexible();
    const response = await t.request({
      method: "POST",
      url: `/product/${product.id}/buy`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "amount=2",
    });
    expect(response.statusCode).toBe(422);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.body).toContain("Please pay at least $5.00.");
    expect(response.body).toMatch(/name="amount"[^>]*value="2"/);
  });

  it("takes a code off the minimum: the buyer may pay from the discounted minimum up", async () => {
    const product = await flexible({ title: "Coded PWYW" });
    const created = await t.request({
      method: "POST",
      url: "/api/discount-codes",
      cookie: seller.cookie,
      body: { code: `PWYW${++counter}`, kind: "percent", value: "20", appliesTo: "all" },
    });
    const code = created.json() as DiscountCode;
    const quote = await t.request({
      method: "GET",
      url: `/api/products/${product.id}/price?code=${code.code}`,
    });
    expect(quote.json()).toMatchObject({ originalPriceCents: 500, priceCents: 400, discountCents: 100 });
    const page = (await t.request({ method: "GET", url: `/product/${product.id}?code=${code.code}` })).body;
    expect(page).toContain("$4.00+");
    expect(page).toMatch(/<s[^>]*>.*\$5\.00\+<\/s>/);
    const below = await buyNow(product.id, { amount: "3.99", code: code.code });
    expect(below.statusCode).toBe(422);
    expect(below.json().message).toBe("Please pay at least $4.00.");
    const ok = await buyNow(product.id, { amount: "4", code: code.code });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await charged(ok.json().url)).toBe(400);
    const order = await pay(ok.json().url, `coded-${counter}@example.com`);
    expect(order).toMatchObject({ amount_cents: 400, discount_code: code.code, discount_cents: 100 });
  });

  it("works with limited stock: the last unit goes to one buyer", async () => {
    const product = await flexible({ inventoryType: "limited", quantityAvailable: "1" });
    expect((await buyNow(product.id, { amount: "20" }, "192.0.2.30")).statusCode).toBe(200);
    const second = await buyNow(product.id, { amount: "20" }, "192.0.2.31");
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(ORDER_MESSAGES.soldOut);
  });

  it("a buyer coming back with another amount gets a new checkout at that amount", async () => {
    const product = await flexible({ inventoryType: "limited", quantityAvailable: "3" });
    const cookieOf = (response: { headers: Record<string, unknown> }) =>
      String(response.headers["set-cookie"]).split(";")[0]!;
    const first = await buyNow(product.id, { amount: "6" }, "192.0.2.40");
    const cookie = cookieOf(first);
    const again = await t.request({
      method: "POST",
      url: "/api/checkout",
      body: { productId: product.id, amount: "6" },
      ip: "192.0.2.40",
      cookie,
    });
    expect(again.json().url).toBe(first.json().url);
    const other = await t.request({
      method: "POST",
      url: "/api/checkout",
      body: { productId: product.id, amount: "9" },
      ip: "192.0.2.40",
      cookie,
    });
    expect(other.json().url).not.toBe(first.json().url);
    expect(await charged(other.json().url)).toBe(900);
  });
});
