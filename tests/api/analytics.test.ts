import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ANALYTICS_MESSAGES, type SellerAnalytics } from "../../src/contracts/analytics";
import { control } from "./support/emulator-control";
import { createProduct, readySeller } from "./support/sellers";
import { APP_URL, createTestApp, signUp, type TestApp } from "./support/test-app";
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

const DAY_MS = 24 * 60 * 60 * 1000;
const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0 Safari/537.36";
let visitor = 0;
/** A buyer's address of their own, so per-network and per-visitor rules never join two of them. */
const nextIp = () => `172.16.${Math.floor(++visitor / 250)}.${(visitor % 250) + 1}`;

const analytics = async (cookie: string, query = "") => {
  const response = await t.request({ method: "GET", url: `/api/analytics${query}`, cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as SellerAnalytics;
};

const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/**
 * The source fields of the product page's Buy Now form, as a browser would post them; the form also
 * carries the currency its price was shown in (the store's here), which is checked and left out.
 */
function buyFormFields(html: string): Record<string, string> {
  const form = html.match(/<form[^>]* action="\/product\/[^"]+\/buy"[^>]*>([\s\S]*?)<\/form>/);
  expect(form, "the page has a Buy Now form").not.toBeNull();
  const fields: Record<string, string> = {};
  for (const input of form![1]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    fields[input[1]!] = unescapeHtml(input[2]!);
  const { currency, ...source } = fields;
  expect(currency).toBe("usd");
  return source;
}

/**
 * A visitor opens the product page from `referer` (the link's address may carry utm fields) and the
 * page's script counts the view with the source the page carries, as enhance.ts does.
 */
async function visit(productId: string, options: { query?: string; referer?: string; ip?: string } = {}) {
  const ip = options.ip ?? nextIp();
  const page = await t.request({
    method: "GET",
    url: `/product/${productId}${options.query ?? ""}`,
    headers: { "user-agent": BROWSER, ...(options.referer ? { referer: options.referer } : {}) },
    ip,
  });
  expect(page.statusCode).toBe(200);
  const viewSource = unescapeHtml(page.body.match(/data-view-source="([^"]*)"/)?.[1] ?? "");
  expect(page.body).toContain(`data-product-view="${productId}"`);
  const view = await t.request({
    method: "POST",
    url: `/api/public/products/${productId}/views`,
    body: Object.fromEntries(new URLSearchParams(viewSource)),
    headers: { "user-agent": BROWSER },
    ip,
  });
  expect(view.statusCode).toBe(204);
  return { page, ip, fields: buyFormFields(page.body) };
}

/** Buy Now on the page just visited (its form, without script), paid with 4242; waits for the order. */
async function buyFromPage(productId: string, opened: { ip: string; fields: Record<string, string> }) {
  const response = await t.request({
    method: "POST",
    url: `/product/${productId}/buy`,
    body: new URLSearchParams(opened.fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
    ip: opened.ip,
  });
  expect(response.statusCode, response.body).toBe(303);
  const sessionId = new URL(response.headers.location as string).pathname.split("/").pop()!;
  await control(t.emulator).payCheckout(sessionId, "4242424242424242", `buyer-${visitor}@example.com`);
  const orderOf = () =>
    t.db
      .selectFrom("orders")
      .select(["id", "amount_cents"])
      .where("stripe_session_id", "=", sessionId)
      .executeTakeFirst();
  await eventually(async () => expect(await orderOf()).toBeDefined());
  return (await orderOf())!;
}

describe("traffic sources", () => {
  it("attributes a sale to the visit that started it: the link's utm fields and the referring host", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Sourced", price: "12.50" });
    const opened = await visit(product.id, {
      query: "?utm_source=newsletter&utm_medium=email&utm_campaign=launch%20week",
      referer: "https://www.News.example.com/issues/42?secret=1",
    });
    // The Buy Now form carries the source; only the referring host is kept, never its path or query.
    expect(opened.fields).toEqual({
      ref: "news.example.com",
      utm_source: "newsletter",
      utm_medium: "email",
      utm_campaign: "launch week",
    });
    // A page made for one source is the browser's to keep, never a shared cache's (which keys by URL only).
    expect(opened.page.headers["cache-control"]).toBe("private, no-cache");
    await buyFromPage(product.id, opened);

    const stats = await analytics(seller.cookie, `?productId=${product.id}`);
    expect(stats.sources).toEqual([
      {
        referrerHost: "news.example.com",
        utmSource: "newsletter",
        utmMedium: "email",
        utmCampaign: "launch week",
        productViews: 1,
        units: 1,
        revenueCents: 1250,
      },
    ]);
    expect(stats.totals).toMatchObject({ productViews: 1, units: 1, revenueCents: 1250, conversionRate: 1 });
    expect(stats.products).toEqual([
      {
        productId: product.id,
        title: "Sourced",
        productViews: 1,
        units: 1,
        revenueCents: 1250,
        conversionRate: 1,
      },
    ]);
  });

  it("ignores our own host as a referrer, and a sale from it is direct unless the link said otherwise", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Own host" });
    const fromStore = await visit(product.id, { referer: `${APP_URL}/store/${seller.userId}` });
    expect(fromStore.fields).toEqual({});
    expect(fromStore.page.headers["cache-control"]).toBe("public, max-age=0, s-maxage=60");
    await buyFromPage(product.id, fromStore);
    // The store page passes on where its visitor came from in its product links (a page per source,
    // the browser's only), and the product page keeps it.
    const store = await t.request({
      method: "GET",
      url: `/store/${seller.userId}?utm_source=x`,
      headers: { "user-agent": BROWSER, referer: "https://www.twitter.com/someone/status/1" },
    });
    expect(store.headers["cache-control"]).toBe("private, no-cache");
    expect(store.body).toContain(`href="/product/${product.id}?ref=twitter.com&amp;utm_source=x"`);
    const plainStore = await t.request({ method: "GET", url: `/store/${seller.userId}` });
    expect(plainStore.body).toContain(`href="/product/${product.id}"`);
    const passedOn = await visit(product.id, {
      query: "?ref=Twitter.com&utm_source=x",
      referer: `${APP_URL}/store/${seller.userId}`,
    });
    expect(passedOn.fields).toEqual({ ref: "twitter.com", utm_source: "x" });

    const { sources } = await analytics(seller.cookie, `?productId=${product.id}`);
    expect(sources).toEqual([
      {
        referrerHost: null,
        utmSource: null,
        utmMedium: null,
        utmCampaign: null,
        productViews: 1,
        units: 1,
        revenueCents: 1999,
      },
      {
        referrerHost: "twitter.com",
        utmSource: "x",
        utmMedium: null,
        utmCampaign: null,
        productViews: 1,
        units: 0,
        revenueCents: 0,
      },
    ]);
  });

  it("never shows one visitor's source to another: kept pages are per source, the plain one has none", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Cached" });
    const fromA = await visit(product.id, { query: "?utm_source=alpha" });
    const plain = await visit(product.id);
    const fromB = await visit(product.id, { query: "?utm_source=beta" });
    const fromAAgain = await visit(product.id, { query: "?utm_source=alpha" });
    expect(fromA.fields).toEqual({ utm_source: "alpha" });
    expect(plain.fields).toEqual({});
    expect(plain.page.body).not.toContain("data-view-source");
    expect(fromB.fields).toEqual({ utm_source: "beta" });
    expect(fromAAgain.fields).toEqual({ utm_source: "alpha" });
    // Still a strong ETag per page, so a browser's revalidation is a 304.
    const again = await t.request({
      method: "GET",
      url: `/product/${product.id}?utm_source=alpha`,
      headers: { "user-agent": BROWSER, "if-none-match": fromA.page.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  it("renders made-up sources for one network 30 times a minute, then serves it the plain page", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Flooded" });
    const ip = nextIp();
    const open = (query: string) =>
      t.request({
        method: "GET",
        url: `/product/${product.id}${query}`,
        headers: { "user-agent": BROWSER },
        ip,
      });
    for (let i = 0; i < 30; i++) {
      const page = await open(`?utm_source=made-up-${i}`);
      expect(buyFormFields(page.body)).toEqual({ utm_source: `made-up-${i}` });
    }
    const past = await open("?utm_source=made-up-30");
    expect(past.statusCode).toBe(200);
    expect(buyFormFields(past.body)).toEqual({});
    expect(past.headers["cache-control"]).toContain("public");
    // A source already kept is still served to it, and another network still gets its own.
    expect(buyFormFields((await open("?utm_source=made-up-0")).body)).toEqual({ utm_source: "made-up-0" });
    expect((await visit(product.id, { query: "?utm_source=newsletter" })).fields).toEqual({
      utm_source: "newsletter",
    });
  });

  it("attributes a sale made through the JSON API with the source fields", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Through the API", price: "5.00" });
    const response = await t.request({
      method: "POST",
      url: "/api/checkout",
      body: { productId: product.id, utm_source: "app", ref: "partner.example.org" },
    });
    expect(response.statusCode, response.body).toBe(200);
    await control(t.emulator).payCheckout(new URL(response.json().url).pathname.split("/").pop()!);
    await eventually(async () => {
      const { sources } = await analytics(seller.cookie, `?productId=${product.id}`);
      expect(sources).toMatchObject([
        { referrerHost: "partner.example.org", utmSource: "app", units: 1, revenueCents: 500 },
      ]);
    });
  });

  it("never shows a conversion above 100%: one counted view and two sales is 100%", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Bought twice", price: "3.00" });
    // One visitor buys twice from the page within 30 minutes: one view counted, two sales.
    const opened = await visit(product.id);
    await buyFromPage(product.id, opened);
    await buyFromPage(product.id, opened);
    const stats = await analytics(seller.cookie, `?productId=${product.id}`);
    expect(stats.totals).toMatchObject({ productViews: 1, units: 2, conversionRate: 1 });
    expect(stats.products).toMatchObject([{ productViews: 1, units: 2, conversionRate: 1 }]);
  });

  it("counts a visitor once per 30 minutes, and never bots or the seller", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Views" });
    const ip = nextIp();
    await visit(product.id, { ip });
    await visit(product.id, { ip });
    const post = (headers: Record<string, string>, cookie?: string) =>
      t.request({
        method: "POST",
        url: `/api/public/products/${product.id}/views`,
        body: {},
        headers,
        ...(cookie ? { cookie } : {}),
      });
    expect((await post({ "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" })).statusCode).toBe(
      204,
    );
    expect((await post({ "user-agent": BROWSER }, seller.cookie)).statusCode).toBe(204);
    expect((await analytics(seller.cookie, `?productId=${product.id}`)).totals.productViews).toBe(1);
    t.clock.advance(31 * 60 * 1000);
    await visit(product.id, { ip });
    expect((await analytics(seller.cookie, `?productId=${product.id}`)).totals.productViews).toBe(2);
    // Bad input is refused with a reason, and changes nothing.
    const refused = await t.request({
      method: "POST",
      url: `/api/public/products/${product.id}/views`,
      body: { utm_source: "x".repeat(101) },
      headers: { "user-agent": BROWSER },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/100/);
    expect((await analytics(seller.cookie, `?productId=${product.id}`)).totals.productViews).toBe(2);
  });
});

describe("revenue, periods and refunds", () => {
  it("takes a refunded sale out of its day, product and source", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Refunded", price: "30.00" });
    const opened = await visit(product.id, { query: "?utm_source=podcast" });
    const order = await buyFromPage(product.id, opened);
    const kept = await buyFromPage(product.id, await visit(product.id, { query: "?utm_source=podcast" }));
    expect((await analytics(seller.cookie, `?productId=${product.id}`)).totals).toMatchObject({
      units: 2,
      revenueCents: 6000,
    });

    const refund = await t.request({
      method: "POST",
      url: `/api/orders/${order.id}/refund`,
      cookie: seller.cookie,
    });
    expect(refund.statusCode, refund.body).toBeLessThan(300);
    await eventually(async () => {
      const stats = await analytics(seller.cookie, `?productId=${product.id}`);
      expect(stats.totals).toMatchObject({ units: 1, revenueCents: kept.amount_cents, productViews: 2 });
      expect(stats.sources).toMatchObject([
        { utmSource: "podcast", units: 1, revenueCents: 3000, productViews: 2 },
      ]);
      expect(stats.series.reduce((sum, point) => sum + point.revenueCents, 0)).toBe(3000);
    });
    // A refund told twice (the seller here, then Stripe's charge.refunded) takes it back once.
    const again = await t.request({
      method: "POST",
      url: `/api/orders/${order.id}/refund`,
      cookie: seller.cookie,
    });
    expect(again.statusCode).toBeGreaterThanOrEqual(400);
    expect((await analytics(seller.cookie, `?productId=${product.id}`)).totals.revenueCents).toBe(3000);
  });

  it("splits the period from the one before it, per day up to 90 days and per week beyond", async () => {
    const other = await readySeller(t);
    const product = await createProduct(t, other.cookie, { title: "Timeline", price: "10.00" });
    await buyFromPage(product.id, await visit(product.id));
    const saleDay = new Date(t.clock.now()).toISOString().slice(0, 10);

    // Eight days later the sale is in the 7 days before the last 7, and within the last 30.
    t.clock.advance(8 * DAY_MS);
    const week = await analytics(other.cookie, "?period=7d");
    expect(week).toMatchObject({ period: "7d", bucket: "day" });
    expect(week.series).toHaveLength(7);
    expect(week.totals).toMatchObject({ units: 0, revenueCents: 0, productViews: 0 });
    expect(week.previous).toMatchObject({ units: 1, revenueCents: 1000, productViews: 1, conversionRate: 1 });

    const month = await analytics(other.cookie, "?period=30d");
    expect(month.series).toHaveLength(30);
    expect(month.series.find((point) => point.date === saleDay)).toMatchObject({
      units: 1,
      revenueCents: 1000,
    });
    expect(month.totals).toMatchObject({ units: 1, revenueCents: 1000 });
    expect(month.previous).toMatchObject({ units: 0, revenueCents: 0 });

    const year = await analytics(other.cookie, "?period=365d");
    expect(year.bucket).toBe("week");
    expect(year.series.length).toBeGreaterThanOrEqual(53);
    expect(year.series.every((point) => new Date(`${point.date}T00:00:00Z`).getUTCDay() === 1)).toBe(true);
    expect(year.series.reduce((sum, point) => sum + point.units, 0)).toBe(1);

    const all = await analytics(other.cookie, "?period=all");
    expect(all).toMatchObject({ from: saleDay, bucket: "day", previous: null });
    expect(all.totals).toMatchObject({ units: 1, revenueCents: 1000 });
  });

  it("shows a seller only their own numbers", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Mine" });
    await buyFromPage(product.id, await visit(product.id, { query: "?utm_source=mine" }));
    const stranger = await readySeller(t);
    const theirs = await analytics(stranger.cookie);
    expect(theirs.totals).toMatchObject({ units: 0, revenueCents: 0, productViews: 0, storeViews: 0 });
    expect(theirs.products).toEqual([]);
    expect(theirs.sources).toEqual([]);
    // Naming another seller's product finds nothing either.
    const filtered = await analytics(stranger.cookie, `?productId=${product.id}`);
    expect(filtered.totals.units).toBe(0);
    expect(filtered.sources).toEqual([]);
    expect((await analytics(seller.cookie, `?productId=${product.id}`)).totals.units).toBe(1);
  });

  it("refuses a bad period with a clear message, and strangers", async () => {
    const bad = await t.request({ method: "GET", url: "/api/analytics?period=14d", cookie: seller.cookie });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(ANALYTICS_MESSAGES.badPeriod);
    const signedOut = await t.request({ method: "GET", url: "/api/analytics" });
    expect(signedOut.statusCode).toBe(401);
    const plainUser = await signUp(t);
    expect((await analytics(plainUser.cookie)).totals.units).toBe(0);
  });
});
