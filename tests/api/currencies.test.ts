import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENCY_MESSAGES } from "../../src/contracts/currencies";
import { control } from "./support/emulator-control";
import { buyProduct, createProduct, readySeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

// Currencies (docs/money.md): the store currency, fixed prices in other currencies, the buyer's
// currency from their request, Checkout in it, Adaptive Pricing for the rest, and orders that keep what
// the buyer paid and what it settled as. The emulator converts at its fixed rates (1 USD = 0.92 EUR).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
});
afterAll(async () => {
  await t.close();
});

type Seller = Awaited<ReturnType<typeof readySeller>>;
const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const nbsp = (text: string) => text.replace(/\u00a0/g, " ");

async function storeCurrency(seller: Seller, body: object) {
  return t.request({ method: "PUT", url: "/api/store-currency", cookie: seller.cookie, body });
}

async function buyNow(productId: string, headers: Record<string, string>, body: object = {}) {
  return t.request({ method: "POST", url: "/api/checkout", headers, body: { productId, ...body } });
}

async function orderOf(sessionId: string) {
  let order:
    | { amount_cents: number; currency: string; settlement_cents: number; settlement_currency: string }
    | undefined;
  await eventually(async () => {
    order = await t.db
      .selectFrom("orders")
      .select(["amount_cents", "currency", "settlement_cents", "settlement_currency"])
      .where("stripe_session_id", "=", sessionId)
      .executeTakeFirst();
    expect(order).toBeDefined();
  });
  return order!;
}

describe("the store currency", () => {
  it("is US dollars at first, may be any currency the account takes before the first sale, and is fixed after it", async () => {
    const seller = await readySeller(t);
    const first = await t.request({ method: "GET", url: "/api/store-currency", cookie: seller.cookie });
    expect(first.statusCode, first.body).toBe(200);
    const settings = first.json();
    expect(settings).toMatchObject({
      currency: "usd",
      locked: false,
      adaptivePricing: false,
      settlementCurrency: "usd",
    });
    const codes = settings.choices.map((choice: { code: string }) => choice.code);
    for (const code of ["usd", "eur", "gbp", "cad", "aud", "jpy", "brl", "inr", "mxn", "chf"])
      expect(codes).toContain(code);
    expect(settings.choices).toContainEqual({ code: "jpy", name: "Japanese Yen" });

    // A currency Stripe does not take in the account's country: refused, nothing changes.
    const refused = await storeCurrency(seller, { currency: "irr" });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: "currency_not_supported",
      message: "Your Stripe account can't take payments in IRR.",
    });
    const mangled = await storeCurrency(seller, { currency: "euro" });
    expect(mangled.statusCode).toBe(400);

    const euro = await storeCurrency(seller, { currency: "EUR" });
    expect(euro.statusCode, euro.body).toBe(200);
    expect(euro.json().currency).toBe("eur");
    const status = await t.request({ method: "GET", url: "/api/seller/status", cookie: seller.cookie });
    expect(status.json().storeCurrency).toBe("eur");

    // Prices in other currencies and Adaptive Pricing need the store to count in what Stripe pays out in.
    const adaptive = await storeCurrency(seller, { adaptivePricing: true });
    expect(adaptive.statusCode).toBe(422);
    expect(adaptive.json()).toMatchObject({
      code: "currency_not_settled",
      message:
        "Prices in other currencies need your store currency to be USD, the currency Stripe pays you in.",
    });

    expect((await storeCurrency(seller, { currency: "usd" })).statusCode).toBe(200);
    const product = await createProduct(t, seller.cookie, { price: "5" }, { cover: false });
    // A buyer in Checkout now would settle in dollars: the currency waits for their checkout to end.
    expect((await buyNow(product.id, {})).statusCode).toBe(200);
    const paying = await storeCurrency(seller, { currency: "gbp" });
    expect(paying.statusCode).toBe(409);
    expect(paying.json()).toMatchObject({ code: "currency_locked", message: CURRENCY_MESSAGES.checkoutOpen });
    await buyProduct(t, product.id, "first@example.com");
    const locked = await storeCurrency(seller, { currency: "gbp" });
    expect(locked.statusCode).toBe(409);
    expect(locked.json()).toMatchObject({
      code: "currency_locked",
      message: "The store currency can't change after your first sale.",
    });
    expect(
      (await t.request({ method: "GET", url: "/api/store-currency", cookie: seller.cookie })).json(),
    ).toMatchObject({
      currency: "usd",
      locked: true,
    });
  });
});

describe("a fixed price in euros", () => {
  let seller: Seller;
  let productId: string;
  beforeAll(async () => {
    seller = await readySeller(t);
    const product = await createProduct(
      t,
      seller.cookie,
      { price: "19", prices: [{ currency: "eur", price: "18" }] },
      { cover: false },
    );
    productId = product.id;
  });

  it("is refused for a currency the account can't take or we don't show, twice, or as the store's own", async () => {
    for (const [prices, message] of [
      [[{ currency: "xyz", price: "18" }], "Prices in XYZ aren't available yet."],
      [[{ currency: "usd", price: "18" }], "USD is your store currency: set that price above."],
      [
        [
          { currency: "eur", price: "18" },
          { currency: "eur", price: "17" },
        ],
        "There is already a price in EUR.",
      ],
      [[{ currency: "eur", price: "18.555" }], "Enter an amount in EUR with at most 2 decimals, like 18.00"],
      [[{ currency: "jpy", price: "150.5" }], "Enter a whole amount in JPY, like 1500"],
      [[{ currency: "eur", price: "0.10" }], "Prices in EUR start at €0.50."],
    ] as const) {
      const response = await t.request({
        method: "PATCH",
        url: `/api/products/${productId}`,
        cookie: seller.cookie,
        body: { prices },
      });
      expect(response.statusCode, JSON.stringify(prices)).toBe(400);
      expect(response.json().message).toBe(message);
    }
    const stored = await t.db
      .selectFrom("product_prices")
      .selectAll()
      .where("product_id", "=", productId)
      .execute();
    expect(stored).toEqual([
      { product_id: productId, seller_id: seller.userId, currency: "eur", amount_cents: 1800 },
    ]);
  });

  it("shows in euros to a buyer whose browser is German, in dollars to others, and the switcher overrides both", async () => {
    const german = await t.request({
      method: "GET",
      url: `/product/${productId}`,
      headers: { "accept-language": "de-DE,de;q=0.9" },
    });
    expect(nbsp(german.body)).toContain("18,00 €");
    expect(german.body).not.toContain("19,00");
    const american = await t.request({
      method: "GET",
      url: `/product/${productId}`,
      headers: { "accept-language": "en-US" },
    });
    expect(american.body).toContain("$19.00");
    expect(american.body).not.toContain("€");

    const switched = await t.request({
      method: "GET",
      url: `/product/${productId}?currency=eur`,
      headers: { "accept-language": "en-US" },
    });
    expect(switched.body).toContain("€18.00");
    expect(String(switched.headers["set-cookie"])).toMatch(
      /^currency=eur; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Lax/,
    );
    const remembered = await t.request({
      method: "GET",
      url: `/product/${productId}`,
      headers: { cookie: "currency=eur" },
    });
    expect(remembered.body).toContain("€18.00");
    // A currency the product has no price in shows the store's.
    const pounds = await t.request({
      method: "GET",
      url: `/product/${productId}`,
      headers: { "accept-language": "en-GB" },
    });
    expect(pounds.body).toContain("$19.00");
  });

  it("is what a German buyer pays on Checkout, and the order keeps the euros and the dollars they settled as", async () => {
    const checkout = await buyNow(productId, { "accept-language": "de-DE" });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const sessionId = sessionIdOf(checkout.json().url);
    const session = await t.stripe.checkout.sessions.retrieve(
      sessionId,
      {},
      { stripeAccount: seller.account },
    );
    expect(session).toMatchObject({ currency: "eur", amount_total: 1800, locale: "de" });
    await control(t.emulator).payCheckout(sessionId, "4242424242424242", "berlin@example.com");
    // 1800 EUR cents at the emulator's 0.92 EUR per USD: 1957 USD cents settled.
    expect(await orderOf(sessionId)).toEqual({
      amount_cents: 1800,
      currency: "eur",
      settlement_cents: 1957,
      settlement_currency: "usd",
    });

    const sales = await t.request({ method: "GET", url: "/api/orders", cookie: seller.cookie });
    expect(sales.json().sales[0]).toMatchObject({
      amountCents: 1800,
      currency: "eur",
      settlementCents: 1957,
      settlementCurrency: "usd",
    });
    // Totals add up in the store currency.
    const stats = await t.request({ method: "GET", url: "/api/dashboard/stats", cookie: seller.cookie });
    expect(stats.json().totalRevenueCents).toBe(1957);
    const analytics = await t.request({ method: "GET", url: "/api/analytics", cookie: seller.cookie });
    expect(analytics.json().totals.revenueCents).toBe(1957);
    // So does the tax report: the sale counts as the dollars it settled as, never as 1800 "dollars".
    const report = (await t.request({ method: "GET", url: "/api/tax/report", cookie: seller.cookie })).json();
    expect(report.currency).toBe("usd");
    expect(report.totals.netCents + report.totals.taxCents).toBe(1957);
    const csv = await t.request({ method: "GET", url: "/api/tax/report.csv", cookie: seller.cookie });
    expect(csv.body).toContain(`,${(report.totals.netCents / 100).toFixed(2)},`);
  });

  it("refuses Checkout in a currency the product has no price in", async () => {
    const refused = await buyNow(productId, {}, { currency: "gbp" });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: "currency_not_offered",
      message: "This product has no price in GBP.",
    });
    const euros = await buyNow(productId, { "accept-language": "en-US" }, { currency: "eur" });
    expect(euros.statusCode, euros.body).toBe(200);
  });

  it("takes no amount-off code of another currency, while a percentage applies in any", async () => {
    for (const body of [
      { code: "FIVEOFF", kind: "amount", value: "5", appliesTo: "all" },
      { code: "TENPCT", kind: "percent", value: "10", appliesTo: "all" },
    ]) {
      const saved = await t.request({
        method: "POST",
        url: "/api/discount-codes",
        cookie: seller.cookie,
        body,
      });
      expect(saved.statusCode, saved.body).toBe(201);
    }
    const amountOff = await buyNow(productId, { "accept-language": "de-DE" }, { code: "FIVEOFF" });
    expect(amountOff.statusCode).toBe(422);
    expect(amountOff.json()).toMatchObject({ details: { reason: "other_currency" } });
    const inDollars = await buyNow(productId, { "accept-language": "en-US" }, { code: "FIVEOFF" });
    expect(inDollars.statusCode, inDollars.body).toBe(200);
    const percent = await buyNow(productId, { "accept-language": "fr-FR" }, { code: "TENPCT" });
    expect(percent.statusCode, percent.body).toBe(200);
    const session = await t.stripe.checkout.sessions.retrieve(
      sessionIdOf(percent.json().url),
      {},
      { stripeAccount: seller.account },
    );
    expect(session).toMatchObject({ currency: "eur", amount_total: 1620 });
  });
});

describe("Adaptive Pricing", () => {
  it("lets a Japanese buyer pay in yen where the product has no yen price; the store receives its dollars", async () => {
    const seller = await readySeller(t);
    const saved = await storeCurrency(seller, { adaptivePricing: true });
    expect(saved.statusCode, saved.body).toBe(200);
    const product = await createProduct(t, seller.cookie, { price: "19" }, { cover: false });
    const checkout = await buyNow(product.id, { "accept-language": "ja-JP" });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const sessionId = sessionIdOf(checkout.json().url);
    const session = await t.stripe.checkout.sessions.retrieve(
      sessionId,
      {},
      { stripeAccount: seller.account },
    );
    expect(session).toMatchObject({
      currency: "usd",
      amount_total: 1900,
      adaptive_pricing: { enabled: true },
      locale: "ja",
    });

    const response = await fetch(`${t.emulator.url}/_emulator/checkout/sessions/${sessionId}/complete`, {
      method: "POST",
      headers: { "content-type": "application/json", "accept-language": "ja-JP" },
      body: JSON.stringify({ card: "4242424242424242", email: "tokyo@example.com", terms_of_service: true }),
    });
    expect(response.status).toBe(200);
    const order = await orderOf(sessionId);
    expect(order).toMatchObject({ currency: "jpy", settlement_cents: 1900, settlement_currency: "usd" });
    // ¥2,850 at 150 yen a dollar, plus the buyer's 2% conversion fee, rounded up.
    expect(order.amount_cents).toBe(2907);
  });
});

describe("a yen store", () => {
  it("prices in whole yen, shows no decimals, and sells at ¥1,500", async () => {
    const seller = await readySeller(t);
    expect((await storeCurrency(seller, { currency: "jpy" })).statusCode).toBe(200);
    const cents = await t.request({
      method: "POST",
      url: "/api/products",
      cookie: seller.cookie,
      body: { title: "Yen", price: "15.50", inventoryType: "unlimited", fileUploadId: "none" },
    });
    expect(cents.statusCode).toBe(400);
    expect(cents.json().message).toBe("Enter a whole amount in JPY, like 1500");
    const tooLow = await t.request({
      method: "POST",
      url: "/api/products",
      cookie: seller.cookie,
      body: { title: "Yen", price: "30", inventoryType: "unlimited", fileUploadId: "none" },
    });
    expect(tooLow.json().message).toBe("Price must be 0 (free) or at least ¥50");

    const product = await createProduct(t, seller.cookie, { price: "1500" }, { cover: false });
    const detail = await t.request({
      method: "GET",
      url: `/api/products/${product.id}`,
      cookie: seller.cookie,
    });
    expect(detail.json()).toMatchObject({ priceCents: 1500, currency: "jpy" });
    const page = await t.request({
      method: "GET",
      url: `/product/${product.id}`,
      headers: { "accept-language": "en-US" },
    });
    expect(page.body).toContain("¥1,500");
    expect(page.body).not.toMatch(/¥1,500\.\d/);
    const japanese = await t.request({
      method: "GET",
      url: `/product/${product.id}`,
      headers: { "accept-language": "ja-JP" },
    });
    expect(japanese.body).toContain("￥1,500");

    const checkout = await buyNow(product.id, { "accept-language": "ja-JP" });
    const sessionId = sessionIdOf(checkout.json().url);
    const session = await t.stripe.checkout.sessions.retrieve(
      sessionId,
      {},
      { stripeAccount: seller.account },
    );
    expect(session).toMatchObject({ currency: "jpy", amount_total: 1500 });
    await control(t.emulator).payCheckout(sessionId, "4242424242424242", "yen@example.com");
    expect(await orderOf(sessionId)).toEqual({
      amount_cents: 1500,
      currency: "jpy",
      settlement_cents: 1500,
      settlement_currency: "jpy",
    });
    const stats = await t.request({ method: "GET", url: "/api/dashboard/stats", cookie: seller.cookie });
    expect(stats.json().totalRevenueCents).toBe(1500);
  });
});
