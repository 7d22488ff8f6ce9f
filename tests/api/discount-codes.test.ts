import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  DISCOUNT_MESSAGES,
  DISCOUNT_REFUSAL_MESSAGES,
  type DiscountCode,
  type DiscountCodeFields,
  type ProductPrice,
} from "../../src/contracts/discounts";
import type { SalesPage } from "../../src/contracts/orders";
import { FREE_CLAIM_MESSAGES } from "../../src/contracts/products";
import { CODE_HOLD_MS } from "../../src/server/features/checkout/create-checkout";
import { CODE_TRY_LIMIT, CODE_TRY_LIMIT_MESSAGE } from "../../src/server/features/discounts/code-tries";
import { endUnpaidCheckout } from "../../src/server/features/orders/stock";
import { control } from "./support/emulator-control";
import { createProduct, readySeller } from "./support/sellers";
import { createTestApp, signUp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let rival: Awaited<ReturnType<typeof readySeller>>;
let account: string;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  seller = await readySeller(t);
  rival = await readySeller(t);
  account = seller.account;
});
afterAll(async () => {
  await t.close();
});
afterEach(() => t.clock.reset());

const DAY_MS = 24 * 60 * 60 * 1000;
let codeCounter = 0;
const uniqueCode = (prefix = "SAVE") => `${prefix}${Date.now() % 100000}${++codeCounter}`;
const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const product = (fields: Record<string, unknown> = {}, cookie = seller.cookie) =>
  createProduct(t, cookie, fields, { cover: false });

function createCode(fields: Partial<DiscountCodeFields> = {}, cookie = seller.cookie) {
  return t.request({
    method: "POST",
    url: "/api/discount-codes",
    cookie,
    body: { code: uniqueCode(), kind: "percent", value: "20", appliesTo: "all", ...fields },
  });
}
async function newCode(fields: Partial<DiscountCodeFields> = {}, cookie = seller.cookie) {
  const response = await createCode(fields, cookie);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as DiscountCode;
}
const priceOf = async (productId: string, code: string) => {
  const response = await t.request({
    method: "GET",
    url: `/api/products/${productId}/price?code=${encodeURIComponent(code)}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ProductPrice;
};
const buyNow = (
  productId: string,
  body: Record<string, unknown> = {},
  options: { ip?: string; cookie?: string } = {},
) => t.request({ method: "POST", url: "/api/checkout", body: { productId, ...body }, ...options });
/** A product page form (Buy Now, "Email me the download"), posted as a browser without script does. */
const postForm = (path: string, fields: Record<string, string>, options: { ip?: string } = {}) =>
  t.request({
    method: "POST",
    url: path,
    body: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
    ...options,
  });
const cookieOf = (response: { cookies: Array<{ name: string; value: string }> }) =>
  response.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
const usesOf = (codeId: string) =>
  t.db
    .selectFrom("discount_codes")
    .select(["uses_reserved", "uses_used"])
    .where("id", "=", codeId)
    .executeTakeFirstOrThrow();
const checkoutsOf = (productId: string) =>
  t.db
    .selectFrom("checkouts")
    .selectAll()
    .where("product_id", "=", productId)
    .orderBy("created_at")
    .execute();
const ordersOf = (productId: string) =>
  t.db.selectFrom("orders").selectAll().where("product_id", "=", productId).execute();
const chargedFor = async (url: string) => {
  const session = await t.stripe.checkout.sessions.retrieve(
    sessionIdOf(url),
    { expand: ["line_items"] },
    { stripeAccount: account },
  );
  return { total: session.amount_total, line: session.line_items?.data[0]?.amount_total, session };
};
const listCodes = async (cookie = seller.cookie) => {
  const response = await t.request({ method: "GET", url: "/api/discount-codes", cookie });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { codes: DiscountCode[] }).codes;
};
/** A buyer pays; resolves once the webhook has made the order. */
async function pay(url: string, email: string) {
  await control(t.emulator).payCheckout(sessionIdOf(url), "4242424242424242", email);
  await eventually(async () => {
    const order = await t.db
      .selectFrom("orders")
      .select("id")
      .where("stripe_session_id", "=", sessionIdOf(url))
      .executeTakeFirst();
    expect(order).toBeDefined();
  });
}

describe("the seller's codes", () => {
  it("creates a code, stored upper-case, unique per seller whatever its case", async () => {
    const code = await newCode({ code: "  summer-Sale_1 ", kind: "amount", value: "5", maxUses: "10" });
    expect(code).toMatchObject({
      code: "SUMMER-SALE_1",
      kind: "amount",
      value: 500,
      allProducts: true,
      maxUses: 10,
      paused: false,
      status: "active",
      uses: 0,
      revenueCents: 0,
    });
    const again = await createCode({ code: "Summer-sale_1" });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      message: DISCOUNT_MESSAGES.codeTaken,
      details: { fields: { code: DISCOUNT_MESSAGES.codeTaken } },
    });
    // Another seller may have the same code.
    expect((await createCode({ code: "summer-sale_1" }, rival.cookie)).statusCode).toBe(201);
  });

  it("names every wrong field, and saves nothing", async () => {
    const before = (await listCodes()).length;
    const bad = await createCode({
      code: "no spaces!",
      kind: "percent",
      value: "120",
      appliesTo: "chosen",
      productIds: [],
      startsAt: "2026-06-10T00:00:00.000Z",
      endsAt: "2026-06-01T00:00:00.000Z",
      maxUses: "0",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.fields).toEqual({
      code: DISCOUNT_MESSAGES.codeCharacters,
      value: DISCOUNT_MESSAGES.percentInvalid,
      productIds: DISCOUNT_MESSAGES.productsRequired,
      endsAt: DISCOUNT_MESSAGES.endBeforeStart,
      maxUses: DISCOUNT_MESSAGES.maxUsesInvalid,
    });
    expect(bad.json().message).toBe(DISCOUNT_MESSAGES.codeCharacters);
    const amount = await createCode({ code: "AB", kind: "amount", value: "4.999", startsAt: "tomorrow" });
    expect(amount.json().details.fields).toEqual({
      code: DISCOUNT_MESSAGES.codeLength,
      value: DISCOUNT_MESSAGES.amountInvalid,
      startsAt: DISCOUNT_MESSAGES.dateInvalid,
    });
    expect((await createCode({ value: "" })).json().details.fields).toEqual({
      value: DISCOUNT_MESSAGES.valueRequired,
    });
    // A code can never name another seller's product.
    const theirs = await product({}, rival.cookie);
    const foreign = await createCode({ appliesTo: "chosen", productIds: [theirs.id] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().details.fields).toEqual({ productIds: DISCOUNT_MESSAGES.productsNotYours });
    expect(await listCodes()).toHaveLength(before);
  });

  it("is the seller's own: others get 404 and never see it; signed out is 401", async () => {
    const code = await newCode();
    expect((await listCodes(rival.cookie)).map((c) => c.id)).not.toContain(code.id);
    const url = `/api/discount-codes/${code.id}`;
    expect(
      (await t.request({ method: "PATCH", url, cookie: rival.cookie, body: { paused: true } })).statusCode,
    ).toBe(404);
    expect((await t.request({ method: "DELETE", url, cookie: rival.cookie })).statusCode).toBe(404);
    expect((await listCodes()).find((c) => c.id === code.id)?.paused).toBe(false);
    const stranger = await signUp(t);
    expect((await listCodes(stranger.cookie)).length).toBe(0);
    expect((await t.request({ method: "GET", url: "/api/discount-codes" })).statusCode).toBe(401);
    expect((await t.request({ method: "PATCH", url, body: { paused: true } })).statusCode).toBe(401);
    expect((await t.request({ method: "DELETE", url })).statusCode).toBe(401);
  });

  it("edits, pauses, resumes and deletes a code", async () => {
    const guide = await product();
    const code = await newCode({ value: "10" });
    const url = `/api/discount-codes/${code.id}`;
    const edited = await t.request({
      method: "PATCH",
      url,
      cookie: seller.cookie,
      body: { value: "25", appliesTo: "chosen", productIds: [guide.id] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ value: 25, allProducts: false, productIds: [guide.id] });
    const wrong = await t.request({ method: "PATCH", url, cookie: seller.cookie, body: { value: "0" } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details.fields).toEqual({ value: DISCOUNT_MESSAGES.percentInvalid });

    const paused = await t.request({ method: "PATCH", url, cookie: seller.cookie, body: { paused: true } });
    expect(paused.json()).toMatchObject({ paused: true, status: "paused", value: 25 });
    expect((await priceOf(guide.id, code.code)).refusal?.reason).toBe("paused");
    await t.request({ method: "PATCH", url, cookie: seller.cookie, body: { paused: false } });
    expect((await priceOf(guide.id, code.code)).priceCents).toBe(1499);

    expect((await t.request({ method: "DELETE", url, cookie: seller.cookie })).statusCode).toBe(204);
    expect((await listCodes()).map((c) => c.id)).not.toContain(code.id);
    expect((await priceOf(guide.id, code.code)).refusal?.reason).toBe("unknown");
    expect((await t.request({ method: "DELETE", url, cookie: seller.cookie })).statusCode).toBe(404);
  });
});

describe("a code on the product page", () => {
  it("answers the original and the new price; codes are case-insensitive", async () => {
    const guide = await product();
    const code = await newCode({ code: uniqueCode("Spring") });
    expect(await priceOf(guide.id, code.code.toLowerCase())).toEqual({
      productId: guide.id,
      originalPriceCents: 1999,
      priceCents: 1599,
      discountCents: 400,
      code: code.code,
      refusal: null,
    });
    const none = await t.request({ method: "GET", url: `/api/products/${guide.id}/price` });
    expect(none.json()).toMatchObject({ priceCents: 1999, code: null, refusal: null });
  });

  it("says clearly why a code does not apply, and the full price stays", async () => {
    const guide = await product();
    const other = await product();
    const now = t.clock.now().getTime();
    const cases: Array<[string, Partial<DiscountCodeFields> | null]> = [
      ["unknown", null],
      ["not_started", { startsAt: new Date(now + DAY_MS).toISOString() }],
      [
        "expired",
        { startsAt: new Date(now - 2 * DAY_MS).toISOString(), endsAt: new Date(now - DAY_MS).toISOString() },
      ],
      ["not_for_product", { appliesTo: "chosen", productIds: [other.id] }],
    ];
    for (const [reason, fields] of cases) {
      const typed = fields ? (await newCode(fields)).code : "NO-SUCH-CODE";
      const answer = await priceOf(guide.id, typed);
      expect(answer, reason).toMatchObject({
        priceCents: 1999,
        discountCents: 0,
        refusal: {
          reason,
          message: DISCOUNT_REFUSAL_MESSAGES[reason as keyof typeof DISCOUNT_REFUSAL_MESSAGES],
        },
      });
    }
    // Another seller's code does not exist for this seller's products.
    const theirs = await newCode({}, rival.cookie);
    expect((await priceOf(guide.id, theirs.code)).refusal?.reason).toBe("unknown");
    // Paused and used up: see their own tests.
  });

  it("raises a price below Stripe's $0.50 minimum to $0.50", async () => {
    const cheap = await product({ price: "1.00" });
    const code = await newCode({ kind: "amount", value: "0.80" });
    expect(await priceOf(cheap.id, code.code)).toMatchObject({
      priceCents: 50,
      discountCents: 50,
      refusal: null,
    });
  });
});

describe("checkout with a code", () => {
  it("charges the price the server computes, whatever the page sends", async () => {
    const guide = await product();
    const code = await newCode({ value: "20" });
    const response = await buyNow(guide.id, {
      code: code.code.toLowerCase(),
      price: "0.50",
      priceCents: 50,
      unit_amount: 50,
      amountCents: 50,
    });
    expect(response.statusCode, response.body).toBe(200);
    const charged = await chargedFor(response.json().url);
    expect(charged.total).toBe(1599);
    expect(charged.line).toBe(1599);
    expect(charged.session.metadata).toMatchObject({ discount_code: code.code });
    const [checkout] = await checkoutsOf(guide.id);
    expect(checkout).toMatchObject({
      discount_code_id: code.id,
      discount_code: code.code,
      original_price_cents: 1999,
      discount_cents: 400,
    });
    // Without a code, the full price: a code is never remembered from an earlier Buy Now.
    const full = await buyNow(guide.id);
    expect((await chargedFor(full.json().url)).total).toBe(1999);
  });

  it("refuses every code that does not apply, holding nothing", async () => {
    const guide = await product();
    const other = await product();
    const now = t.clock.now().getTime();
    const paused = await newCode();
    await t.request({
      method: "PATCH",
      url: `/api/discount-codes/${paused.id}`,
      cookie: seller.cookie,
      body: { paused: true },
    });
    const usedUp = await newCode({ maxUses: "1" });
    await t.db.updateTable("discount_codes").set({ uses_used: 1 }).where("id", "=", usedUp.id).execute();
    const cases: Array<[string, string]> = [
      ["unknown", "NOPE-NOPE"],
      ["not_started", (await newCode({ startsAt: new Date(now + DAY_MS).toISOString() })).code],
      [
        "expired",
        (
          await newCode({
            startsAt: new Date(now - 2 * DAY_MS).toISOString(),
            endsAt: new Date(now - 1000).toISOString(),
          })
        ).code,
      ],
      ["used_up", usedUp.code],
      ["paused", paused.code],
      ["not_for_product", (await newCode({ appliesTo: "chosen", productIds: [other.id] })).code],
    ];
    for (const [reason, typed] of cases) {
      const response = await buyNow(guide.id, { code: typed });
      expect(response.statusCode, reason).toBe(422);
      expect(response.json(), reason).toMatchObject({
        code: "discount_refused",
        message: DISCOUNT_REFUSAL_MESSAGES[reason as keyof typeof DISCOUNT_REFUSAL_MESSAGES],
        details: { reason },
      });
    }
    expect(await checkoutsOf(guide.id)).toEqual([]);
    expect(await usesOf(usedUp.id)).toEqual({ uses_reserved: 0, uses_used: 1 });
  });

  it("holds a use with the checkout, counts it once when paid, and shows it to the seller", async () => {
    const guide = await product({ title: "Brush Pack" });
    const code = await newCode({ value: "20", maxUses: "3" });
    const response = await buyNow(guide.id, { code: code.code });
    expect(await usesOf(code.id)).toEqual({ uses_reserved: 1, uses_used: 0 });
    const email = `with-code-${Date.now()}@example.com`;
    await pay(response.json().url, email);
    expect(await usesOf(code.id)).toEqual({ uses_reserved: 0, uses_used: 1 });

    // The webhook again, the success page, the janitor: still one use.
    const events = await control(t.emulator).events();
    const completed = events.find(
      (event) =>
        event.type === "checkout.session.completed" &&
        (event.data.object as { id: string }).id === sessionIdOf(response.json().url),
    )!;
    await control(t.emulator).redeliver(completed.id);
    await t.request({ method: "GET", url: `/api/orders/by-session/${sessionIdOf(response.json().url)}` });
    await t.app.settleCheckouts(t.clock.now());
    await eventually(async () => expect(await usesOf(code.id)).toEqual({ uses_reserved: 0, uses_used: 1 }));

    const [order] = await ordersOf(guide.id);
    expect(order).toMatchObject({
      amount_cents: 1599,
      discount_code_id: code.id,
      discount_code: code.code,
      discount_cents: 400,
    });
    const receipt = await t.db
      .selectFrom("outbox_emails")
      .selectAll()
      .where("to_address", "=", email)
      .executeTakeFirstOrThrow();
    expect(receipt.text).toContain(`Amount paid: $15.99 with code ${code.code} (you saved $4.00)`);

    const listed = (await listCodes()).find((c) => c.id === code.id);
    expect(listed).toMatchObject({ uses: 1, usesHeld: 0, revenueCents: 1599 });
    const sales = (
      await t.request({ method: "GET", url: "/api/orders", cookie: seller.cookie })
    ).json() as SalesPage;
    expect(sales.sales.find((sale) => sale.id === order!.id)).toMatchObject({
      amountCents: 1599,
      discountCode: code.code,
      discountCents: 400,
    });
    const csv = await t.request({ method: "GET", url: "/api/orders/export.csv", cookie: seller.cookie });
    expect(csv.body.split("\n")[0]).toBe(
      "Customer Email,Product,Amount,Date,Discount Code,Amount Saved,Period Start,Period End,Tax,Tax Rate,Tax Jurisdiction,Buyer Country,Tax Note,Currency,Settled,Settlement Currency,Dispute",
    );
    expect(csv.body).toMatch(
      new RegExp(
        `^${email},Brush Pack,15\\.99,"[^"]+",${code.code},4\\.00,,,0\\.00,,,,,USD,15\\.99,USD,$`,
        "m",
      ),
    );

    // A refund takes the revenue back; the use stays used.
    const refund = await t.request({
      method: "POST",
      url: `/api/orders/${order!.id}/refund`,
      cookie: seller.cookie,
    });
    expect(refund.statusCode, refund.body).toBe(204);
    expect((await listCodes()).find((c) => c.id === code.id)).toMatchObject({ uses: 1, revenueCents: 0 });
  });

  it("gives the use back when the checkout expires, once", async () => {
    const guide = await product();
    const code = await newCode({ maxUses: "1" });
    const first = await buyNow(guide.id, { code: code.code }, { ip: "198.51.100.1" });
    expect(first.statusCode).toBe(200);
    // The one use is held: another buyer hears it is used up.
    const second = await buyNow(guide.id, { code: code.code }, { ip: "198.51.100.2" });
    expect(second.statusCode).toBe(422);
    expect(second.json().message).toBe(DISCOUNT_REFUSAL_MESSAGES.used_up);
    expect((await priceOf(guide.id, code.code)).refusal?.reason).toBe("used_up");

    // Stripe expires the session: its webhook gives the use back; a second expiry event changes nothing.
    await control(t.emulator).expireCheckout(sessionIdOf(first.json().url));
    await eventually(async () => expect(await usesOf(code.id)).toEqual({ uses_reserved: 0, uses_used: 0 }));
    await t.app.settleCheckouts(t.clock.now());
    expect(await usesOf(code.id)).toEqual({ uses_reserved: 0, uses_used: 0 });

    // The janitor closes a checkout whose expiry event never came, and gives its use back.
    const third = await buyNow(guide.id, { code: code.code }, { ip: "198.51.100.3" });
    expect(third.statusCode, third.body).toBe(200);
    expect(await usesOf(code.id)).toEqual({ uses_reserved: 1, uses_used: 0 });
    t.clock.advance(40 * 60_000);
    await t.app.settleCheckouts(t.clock.now());
    expect(await usesOf(code.id)).toEqual({ uses_reserved: 0, uses_used: 0 });
    const session = await t.stripe.checkout.sessions.retrieve(
      sessionIdOf(third.json().url),
      {},
      { stripeAccount: account },
    );
    expect(session.status).toBe("expired");
  });

  it("a use given back before the payment arrived is counted again; an order refunded at once uses nothing", async () => {
    const guide = await product();
    const code = await newCode({ maxUses: "5" });
    const late = await buyNow(guide.id, { code: code.code });
    const [checkout] = await checkoutsOf(guide.id);
    // As if the janitor had ended it just before Stripe took the payment.
    await endUnpaidCheckout(t.db, checkout!.id);
    expect(await usesOf(code.id)).toEqual({ uses_reserved: 0, uses_used: 0 });
    await pay(late.json().url, `late-${Date.now()}@example.com`);
    expect(await usesOf(code.id)).toEqual({ uses_reserved: 0, uses_used: 1 });

    // The product is deleted while a buyer pays: refunded at once, and the held use goes back.
    const doomed = await product();
    const open = await buyNow(doomed.id, { code: code.code });
    expect(await usesOf(code.id)).toEqual({ uses_reserved: 1, uses_used: 1 });
    const deleted = await t.request({
      method: "DELETE",
      url: `/api/products/${doomed.id}`,
      cookie: seller.cookie,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    await control(t.emulator).payCheckout(
      sessionIdOf(open.json().url),
      "4242424242424242",
      "doomed@example.com",
    );
    await eventually(async () => {
      const order = await t.db
        .selectFrom("orders")
        .select(["status", "discount_code"])
        .where("stripe_session_id", "=", sessionIdOf(open.json().url))
        .executeTakeFirst();
      expect(order).toEqual({ status: "refunded", discount_code: code.code });
    });
    expect(await usesOf(code.id)).toEqual({ uses_reserved: 0, uses_used: 1 });
  });

  it("the same browser gets its checkout back with the same code, and a new one at the new price with another", async () => {
    const guide = await product();
    const tenOff = await newCode({ value: "10" });
    const halfOff = await newCode({ value: "50" });
    const ip = "198.51.100.20";
    const first = await buyNow(guide.id, { code: tenOff.code }, { ip });
    const cookie = first.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    const again = await buyNow(guide.id, { code: tenOff.code }, { ip, cookie });
    expect(again.json().url).toBe(first.json().url);
    expect(await usesOf(tenOff.id)).toEqual({ uses_reserved: 1, uses_used: 0 });

    const switched = await buyNow(guide.id, { code: halfOff.code }, { ip, cookie });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(switched.json().url).not.toBe(first.json().url);
    // Half of $19.99, the half cent to the buyer.
    expect((await chargedFor(switched.json().url)).total).toBe(999);
    expect(await usesOf(tenOff.id)).toEqual({ uses_reserved: 0, uses_used: 0 });
    expect(await usesOf(halfOff.id)).toEqual({ uses_reserved: 1, uses_used: 0 });
    expect((await chargedFor(first.json().url)).session.status).toBe("expired");

    // Back without a code: the full price, and the code's use goes back.
    const plain = await buyNow(guide.id, {}, { ip, cookie });
    expect((await chargedFor(plain.json().url)).total).toBe(1999);
    expect(await usesOf(halfOff.id)).toEqual({ uses_reserved: 0, uses_used: 0 });
  });

  it("takes a limited product's unit and the code's use together, or neither", async () => {
    const limited = await product({ inventoryType: "limited", quantityAvailable: "2" });
    const usedUp = await newCode({ maxUses: "1" });
    await t.db.updateTable("discount_codes").set({ uses_reserved: 1 }).where("id", "=", usedUp.id).execute();
    const refused = await buyNow(limited.id, { code: usedUp.code });
    expect(refused.statusCode).toBe(422);
    const stock = await t.db
      .selectFrom("products")
      .select("quantity_available")
      .where("id", "=", limited.id)
      .executeTakeFirstOrThrow();
    expect(stock.quantity_available).toBe(2);
    expect(await checkoutsOf(limited.id)).toEqual([]);
  });

  it("the product page's Buy Now form sends the code", async () => {
    const guide = await product();
    const code = await newCode({ kind: "amount", value: "4.99" });
    const form = (fields: Record<string, string>) =>
      t.request({
        method: "POST",
        url: `/product/${guide.id}/buy`,
        body: new URLSearchParams(fields).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
      });
    const bought = await form({ code: code.code, price: "1" });
    expect(bought.statusCode, bought.body).toBe(303);
    expect((await chargedFor(bought.headers.location as string)).total).toBe(1500);
    // An empty field is no code.
    const plain = await form({ code: "" });
    expect(plain.statusCode).toBe(303);
    expect((await chargedFor(plain.headers.location as string)).total).toBe(1999);
    const refused = await form({ code: "NOT-A-CODE" });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain("doesn&#x27;t exist");
  });
});

describe("guessing codes", () => {
  // What a page priced with a code shows: the code with its saving, or why it does not apply.
  const refusals = Object.values(DISCOUNT_REFUSAL_MESSAGES).map((message) =>
    message.replaceAll("'", "&#x27;"),
  );
  const revealsCode = (body: string, code: string) =>
    body.includes(code) || refusals.some((message) => body.includes(message));

  it("a Buy Now refused past the checkout limit says nothing about the code", async () => {
    const guide = await product();
    const code = await newCode({ kind: "amount", value: "5" });
    const ip = "203.0.113.10";
    const buy = (typed: string) => postForm(`/product/${guide.id}/buy`, { code: typed }, { ip });
    // Under the limit, a refusal shows why the code does not apply.
    const first = await buy("NOT-A-CODE");
    expect(first.statusCode).toBe(422);
    expect(first.body).toContain("doesn&#x27;t exist");
    for (let i = 1; i < 30; i++) expect((await buy(`GUESS-${i}`)).statusCode).toBe(422);

    for (const typed of [code.code, "NOT-A-CODE"]) {
      const refused = await buy(typed);
      expect(refused.statusCode).toBe(429);
      expect(refused.body).toContain("Too many checkouts");
      expect(revealsCode(refused.body, typed), refused.body).toBe(false);
    }
  });

  it("an 'Email me the download' refused past its hourly limit says nothing about the code", async () => {
    const guide = await product();
    const allOff = await newCode({ kind: "percent", value: "100" });
    const ip = "203.0.113.11";
    const claim = (typed: string, i: number) =>
      postForm(`/product/${guide.id}/free`, { code: typed, email: `guess-${i}@example.com` }, { ip });
    for (let i = 0; i < 10; i++) {
      const answer = await claim(`GUESS-${i}`, i);
      expect(answer.statusCode).toBe(422);
      expect(answer.body).toContain("doesn&#x27;t exist");
    }
    for (const typed of [allOff.code, "NOT-A-CODE"]) {
      const refused = await claim(typed, 99);
      expect(refused.statusCode).toBe(429);
      expect(refused.body, refused.body).toContain(FREE_CLAIM_MESSAGES.tooMany);
      expect(revealsCode(refused.body, typed), refused.body).toBe(false);
    }
    expect(await ordersOf(guide.id)).toEqual([]);
  });

  it("every route that reads a code counts it against one limit per network, before reading it", async () => {
    const guide = await product();
    const free = await product({ price: "0" });
    const code = await newCode({ kind: "amount", value: "5" });
    // One IPv6 line: its /64 is one network, whichever of its addresses asks.
    const ipOf = (i: number) => `2001:db8:7:7::${(i + 1).toString(16)}`;
    for (let i = 0; i < CODE_TRY_LIMIT.limit; i++) {
      const tried = await t.request({
        method: "GET",
        url: `/api/products/${guide.id}/price?code=GUESS-${i}`,
        ip: ipOf(i),
      });
      expect(tried.statusCode).toBe(200);
    }
    const ip = ipOf(500);
    const price = await t.request({
      method: "GET",
      url: `/api/products/${guide.id}/price?code=${code.code}`,
      ip,
    });
    expect(price.statusCode).toBe(429);
    expect(price.json().message).toBe(CODE_TRY_LIMIT_MESSAGE);

    const page = await t.request({ method: "GET", url: `/product/${guide.id}?code=${code.code}`, ip });
    expect(page.statusCode).toBe(429);
    expect(revealsCode(page.body, code.code), page.body).toBe(false);

    const json = await buyNow(guide.id, { code: code.code }, { ip });
    expect(json.statusCode, json.body).toBe(429);
    expect(json.json().message).toBe(CODE_TRY_LIMIT_MESSAGE);
    const form = await postForm(`/product/${guide.id}/buy`, { code: code.code }, { ip });
    expect(form.statusCode).toBe(429);
    expect(form.body).toContain(CODE_TRY_LIMIT_MESSAGE);
    expect(revealsCode(form.body, code.code), form.body).toBe(false);

    const freeJson = await t.request({
      method: "POST",
      url: "/api/checkout/free",
      body: { productId: free.id, email: "limited@example.com", code: code.code },
      ip,
    });
    expect(freeJson.statusCode, freeJson.body).toBe(429);
    const freeForm = await postForm(
      `/product/${guide.id}/free`,
      { code: code.code, email: "limited@example.com" },
      { ip },
    );
    expect(freeForm.statusCode).toBe(429);
    expect(revealsCode(freeForm.body, code.code), freeForm.body).toBe(false);
    expect(await checkoutsOf(guide.id)).toEqual([]);
    expect(await ordersOf(free.id)).toEqual([]);

    // Without a code nothing is counted; another network has its own tries.
    expect((await buyNow(guide.id, {}, { ip })).statusCode).toBe(200);
    expect((await priceOf(guide.id, code.code)).priceCents).toBe(1499);
  });
});

describe("holds of a code's uses", () => {
  it("neighbours on one address each use a code on an unlimited product; its maximum of uses still holds", async () => {
    const guide = await product();
    const code = await newCode({ value: "10", maxUses: "2" });
    const ip = "198.51.100.40";
    const mine = await buyNow(guide.id, { code: code.code }, { ip });
    expect(mine.statusCode, mine.body).toBe(200);
    const neighbour = await buyNow(guide.id, { code: code.code }, { ip });
    expect(neighbour.statusCode, neighbour.body).toBe(200);
    expect(neighbour.json().url).not.toBe(mine.json().url);
    expect(await usesOf(code.id)).toEqual({ uses_reserved: 2, uses_used: 0 });
    // Both uses are held: a third browser hears the code is used up, and my browser gets mine back.
    const third = await buyNow(guide.id, { code: code.code }, { ip });
    expect(third.statusCode).toBe(422);
    expect(third.json().message).toBe(DISCOUNT_REFUSAL_MESSAGES.used_up);
    const again = await buyNow(guide.id, { code: code.code }, { ip, cookie: cookieOf(mine) });
    expect(again.json().url).toBe(mine.json().url);
    expect(await usesOf(code.id)).toEqual({ uses_reserved: 2, uses_used: 0 });
  });

  it("an abandoned hold of a code with a maximum of uses lapses sooner: its session is expired and the use given back", async () => {
    const guide = await product();
    const scarce = await newCode({ maxUses: "1" });
    const plenty = await newCode();
    const first = await buyNow(guide.id, { code: scarce.code });
    const unlimited = await buyNow(guide.id, { code: plenty.code });
    expect(first.statusCode, first.body).toBe(200);
    expect((await buyNow(guide.id, { code: scarce.code })).statusCode).toBe(422);

    t.clock.advance(CODE_HOLD_MS - 60_000);
    await t.app.settleCheckouts(t.clock.now());
    expect(await usesOf(scarce.id)).toEqual({ uses_reserved: 1, uses_used: 0 });
    expect((await chargedFor(first.json().url)).session.status).toBe("open");

    t.clock.advance(2 * 60_000);
    await t.app.settleCheckouts(t.clock.now());
    expect(await usesOf(scarce.id)).toEqual({ uses_reserved: 0, uses_used: 0 });
    expect((await chargedFor(first.json().url)).session.status).toBe("expired");
    // A code without a maximum holds nothing scarce: its checkout keeps Stripe's 30 minutes.
    expect((await chargedFor(unlimited.json().url)).session.status).toBe("open");
    expect(await usesOf(plenty.id)).toEqual({ uses_reserved: 1, uses_used: 0 });

    // The use is free for the next buyer; the same browser back after its hold lapsed gets a new checkout.
    const ip = "198.51.100.41";
    const next = await buyNow(guide.id, { code: scarce.code }, { ip });
    expect(next.statusCode, next.body).toBe(200);
    t.clock.advance(CODE_HOLD_MS + 1000);
    const back = await buyNow(guide.id, { code: scarce.code }, { ip, cookie: cookieOf(next) });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().url).not.toBe(next.json().url);
    expect((await chargedFor(next.json().url)).session.status).toBe("expired");
    expect(await usesOf(scarce.id)).toEqual({ uses_reserved: 1, uses_used: 0 });
  });
});
