import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DISCOUNT_REFUSAL_MESSAGES, type DiscountCode } from "../../src/contracts/discounts";
import { ORDER_MESSAGES, type SalesPage } from "../../src/contracts/orders";
import {
  FREE_CLAIM_MESSAGES,
  PAY_WHAT_YOU_WANT_MESSAGES,
  PRODUCT_MESSAGES,
} from "../../src/contracts/products";
import { FREE_CLAIM_LIMITS } from "../../src/server/features/checkout/claim-free-product";
import { createProduct, quantityOf, readySeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  seller = await readySeller(t);
});
afterAll(async () => {
  await t.close();
});
afterEach(() => t.clock.reset());

let counter = 0;
const buyerEmail = (name = "buyer") => `${name}-${Date.now()}-${++counter}@example.com`;
const product = (fields: Record<string, unknown> = {}, cookie = seller.cookie) =>
  createProduct(t, cookie, { price: "0", ...fields }, { cover: false });
const claim = (productId: string, body: Record<string, unknown>, ip?: string) =>
  t.request({
    method: "POST",
    url: "/api/checkout/free",
    body: { productId, ...body },
    ...(ip ? { ip } : {}),
  });
/** The product page's "Email me the download" form, as a browser posts it. */
const claimByForm = (productId: string, fields: Record<string, string>, ip?: string) =>
  t.request({
    method: "POST",
    url: `/product/${productId}/free`,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    ...(ip ? { ip } : {}),
  });
const ordersOf = (productId: string) =>
  t.db.selectFrom("orders").selectAll().where("product_id", "=", productId).orderBy("created_at").execute();
const checkoutsOf = (productId: string) =>
  t.db.selectFrom("checkouts").selectAll().where("product_id", "=", productId).execute();
const mailTo = (email: string) =>
  t.db.selectFrom("outbox_emails").selectAll().where("to_address", "=", email).orderBy("id").execute();
const page = (path: string) => t.request({ method: "GET", url: path });

describe("free products", () => {
  it("take a price of $0, and refuse one Stripe can't charge", async () => {
    const free = await product();
    const shown = await page(`/api/public/products/${free.id}`);
    expect(shown.json()).toMatchObject({ priceCents: 0, priceMode: "fixed", purchasable: true });
    const refused = await t.request({
      method: "POST",
      url: "/api/products",
      cookie: seller.cookie,
      body: { title: "Cheap", price: "0.10", inventoryType: "unlimited", fileUploadId: "x" },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(PRODUCT_MESSAGES.priceTooLow);
  });

  it("shows Free and an email form instead of Buy Now", async () => {
    const free = await product({ title: "Free Wallpapers" });
    const html = (await page(`/product/${free.id}`)).body;
    expect(html).toContain(">Free<");
    expect(html).toContain(`action="/product/${free.id}/free"`);
    expect(html).toContain("Email me the download");
    expect(html).not.toContain(`action="/product/${free.id}/buy"`);
    expect(html).not.toContain("Have a discount code?");
  });

  it("makes a $0 order with the same receipt, download link, library, sales and CSV, without Stripe", async () => {
    const free = await product({ title: "Free Brushes" });
    const email = buyerEmail("free");
    const answer = await claimByForm(free.id, { email: `  ${email.toUpperCase()} ` });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(answer.body).toContain(FREE_CLAIM_MESSAGES.checkEmailTitle);
    // The link goes to the email only: the page never shows it.
    expect(answer.body).not.toContain("/download/");

    const [order] = await ordersOf(free.id);
    expect(order).toMatchObject({
      amount_cents: 0,
      status: "completed",
      customer_email: email,
      payment_intent_id: null,
      product_title: "Free Brushes",
    });
    await eventually(async () => expect(await mailTo(email)).toHaveLength(1));
    const [receipt] = await mailTo(email);
    expect(receipt!.subject).toBe("Your receipt: Free Brushes");
    expect(receipt!.text).toContain("Amount paid: $0.00");
    expect(receipt!.text).not.toContain("processed by Stripe");
    const downloadPath = /\/download\/[A-Za-z0-9._~-]+/.exec(receipt!.text)?.[0];
    const libraryPath = /\/library\?token=[^\s)"]+/.exec(receipt!.text)?.[0];
    expect(downloadPath).toBeDefined();
    expect(libraryPath).toBeDefined();
    const download = await page(downloadPath!);
    expect(download.statusCode).toBe(200);
    expect(download.body).toContain("Free Brushes");
    const library = await page(
      `/api/library?token=${new URL(libraryPath!, "http://x").searchParams.get("token")}`,
    );
    expect(library.statusCode, library.body).toBe(200);
    expect(JSON.stringify(library.json())).toContain("Free Brushes");

    const sales = (
      await t.request({ method: "GET", url: "/api/orders", cookie: seller.cookie })
    ).json() as SalesPage;
    expect(sales.sales.find((sale) => sale.customerEmail === email)).toMatchObject({ amountCents: 0 });
    const csv = await t.request({
      method: "GET",
      url: "/api/orders/export.csv?tz=UTC",
      cookie: seller.cookie,
    });
    expect(csv.body).toMatch(new RegExp(`${email}.*Free Brushes.*0\\.00`));
    // No Stripe session was ever made for it.
    const [checkout] = await checkoutsOf(free.id);
    expect(checkout).toMatchObject({ state: "paid", stripe_session_id: checkout!.id });
    expect(checkout!.id).toMatch(/^free_/);
  });

  it("sends the link again, instead of a second order, to an email that already has the product", async () => {
    const free = await product();
    const email = buyerEmail("again");
    expect((await claim(free.id, { email })).statusCode).toBe(202);
    expect((await claim(free.id, { email })).statusCode).toBe(202);
    expect(await ordersOf(free.id)).toHaveLength(1);
    await eventually(async () =>
      expect((await mailTo(email)).map((mail) => mail.subject)).toEqual([
        expect.stringMatching(/^Your receipt:/),
        expect.stringMatching(/^Your download link:/),
      ]),
    );
  });

  it("refuses a bad email, a paid product, an amount above $0, Buy Now, and changes nothing", async () => {
    const free = await product();
    for (const email of ["", "not-an-email", `${"a".repeat(250)}@example.com`]) {
      const answer = await claimByForm(free.id, { email });
      expect(answer.statusCode, email).toBe(400);
      expect(answer.body).toContain("Please enter a valid email");
      expect((await claim(free.id, { email })).statusCode).toBe(400);
    }
    const paid = await product({ price: "9.00" });
    const notFree = await claim(paid.id, { email: buyerEmail() });
    expect(notFree.statusCode).toBe(422);
    expect(notFree.json().message).toBe(FREE_CLAIM_MESSAGES.notFree);
    const flexible = await product({ priceMode: "flexible", price: "5", suggestedPrice: "10" });
    const belowMinimum = await claim(flexible.id, { email: buyerEmail() });
    expect(belowMinimum.statusCode).toBe(422);
    expect(belowMinimum.json().message).toBe("Please pay at least $5.00.");
    // Buy Now on a free product: no Stripe checkout can charge $0.
    const buy = await t.request({ method: "POST", url: "/api/checkout", body: { productId: free.id } });
    expect(buy.statusCode).toBe(422);
    expect(buy.json().message).toBe(PAY_WHAT_YOU_WANT_MESSAGES.freeUseEmail);
    expect((await claim("no-such-product", { email: buyerEmail() })).statusCode).toBe(404);
    for (const id of [free.id, paid.id, flexible.id]) {
      expect(await ordersOf(id)).toEqual([]);
      expect(await checkoutsOf(id)).toEqual([]);
    }
  });

  it("needs the seller's active plan, but not Stripe Connect", async () => {
    const unconnected = await readySeller(t);
    const free = await product({}, unconnected.cookie);
    const paid = await product({ price: "9.00" }, unconnected.cookie);
    await t.db
      .updateTable("profiles")
      .set({ stripe_connect_onboarding_complete: false })
      .where("id", "=", unconnected.userId)
      .execute();
    expect((await claim(free.id, { email: buyerEmail() })).statusCode).toBe(202);
    expect(await ordersOf(free.id)).toHaveLength(1);
    const buy = await t.request({ method: "POST", url: "/api/checkout", body: { productId: paid.id } });
    expect(buy.statusCode).toBe(409);

    const sub = await t.db
      .selectFrom("subscriptions")
      .select("stripe_subscription_id")
      .where("user_id", "=", unconnected.userId)
      .executeTakeFirstOrThrow();
    await t.stripe.subscriptions.cancel(sub.stripe_subscription_id);
    await eventually(async () =>
      expect((await page(`/api/public/products/${free.id}`)).json()).toMatchObject({ purchasable: false }),
    );
    const refused = await claim(free.id, { email: buyerEmail() });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(ORDER_MESSAGES.notPurchasable);
    expect(await ordersOf(free.id)).toHaveLength(1);
  });

  it("takes limited stock, and says sold out when none is left", async () => {
    const free = await product({ inventoryType: "limited", quantityAvailable: "1" });
    expect((await claim(free.id, { email: buyerEmail() })).statusCode).toBe(202);
    expect(await quantityOf(t, free.id)).toBe(0);
    const refused = await claim(free.id, { email: buyerEmail() });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(ORDER_MESSAGES.soldOut);
    expect(await ordersOf(free.id)).toHaveLength(1);
    expect((await page(`/product/${free.id}`)).body).toContain("Sold Out");
  });

  it("gives 3 units to exactly 3 of 10 buyers claiming at once", async () => {
    const free = await product({ inventoryType: "limited", quantityAvailable: "3" });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        claim(free.id, { email: buyerEmail(`rush${i}`) }, `203.0.113.${i + 1}`),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 202)).toHaveLength(3);
    expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(7);
    expect(await ordersOf(free.id)).toHaveLength(3);
    expect(await quantityOf(t, free.id)).toBe(0);
  });

  it("is rate limited per email and per IP", async () => {
    const free = await product();
    const email = buyerEmail("limited");
    for (let i = 0; i < FREE_CLAIM_LIMITS.perEmail.limit; i++) {
      expect((await claim(free.id, { email }, `192.0.2.${10 + i}`)).statusCode).toBe(202);
    }
    const perEmail = await claim(free.id, { email }, "192.0.2.99");
    expect(perEmail.statusCode).toBe(429);
    expect(perEmail.json().message).toBe(FREE_CLAIM_MESSAGES.tooMany);

    const ip = "192.0.2.150";
    for (let i = 0; i < FREE_CLAIM_LIMITS.perIp.limit; i++) {
      expect((await claim(free.id, { email: buyerEmail() }, ip)).statusCode).toBe(202);
    }
    const perIp = await claimByForm(free.id, { email: buyerEmail() }, ip);
    expect(perIp.statusCode).toBe(429);
    expect(perIp.body).toContain(FREE_CLAIM_MESSAGES.tooMany);
    expect(await ordersOf(free.id)).toHaveLength(1 + FREE_CLAIM_LIMITS.perIp.limit);
  });
});

describe("a code that takes the whole price", () => {
  async function newCode(fields: Record<string, unknown>) {
    const response = await t.request({
      method: "POST",
      url: "/api/discount-codes",
      cookie: seller.cookie,
      body: {
        code: `FREE${Date.now() % 100000}${++counter}`,
        kind: "percent",
        value: "100",
        appliesTo: "all",
        ...fields,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as DiscountCode;
  }

  it("makes the product free by email: the page shows it, the order keeps the code, its use is counted", async () => {
    const guide = await product({ price: "19.99", title: "Paid Guide" });
    const code = await newCode({ maxUses: "1" });
    const shown = await page(`/product/${guide.id}?code=${code.code.toLowerCase()}`);
    expect(shown.headers["cache-control"]).toBe("no-store");
    expect(shown.body).toMatch(/<s[^>]*>.*\$19\.99<\/s>/);
    expect(shown.body).toContain(">Free<");
    expect(shown.body).toContain(`name="code" value="${code.code}"`);
    expect(shown.body).toContain("Email me the download");

    const email = buyerEmail("coded");
    expect((await claimByForm(guide.id, { email, code: code.code.toLowerCase() })).statusCode).toBe(200);
    const [order] = await ordersOf(guide.id);
    expect(order).toMatchObject({ amount_cents: 0, discount_code: code.code, discount_cents: 1999 });
    const uses = await t.db
      .selectFrom("discount_codes")
      .select(["uses_used", "uses_reserved"])
      .where("id", "=", code.id)
      .executeTakeFirstOrThrow();
    expect(uses).toEqual({ uses_used: 1, uses_reserved: 0 });
    await eventually(async () => expect((await mailTo(email))[0]?.text).toContain(`with code ${code.code}`));

    // Used up: the next buyer is told so, and nothing is taken.
    const again = await claim(guide.id, { email: buyerEmail(), code: code.code });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(DISCOUNT_REFUSAL_MESSAGES.used_up);
    expect(await ordersOf(guide.id)).toHaveLength(1);
    // Buy Now with the code says to use the email form; without it, the full price is charged.
    const buy = await t.request({
      method: "POST",
      url: "/api/checkout",
      body: { productId: guide.id, code: (await newCode({})).code },
    });
    expect(buy.json().message).toBe(PAY_WHAT_YOU_WANT_MESSAGES.freeUseEmail);
  });
});
