import type { LightMyRequestResponse } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LICENSE_LIMITS, LICENSE_MESSAGES } from "../../src/contracts/licenses";
import type { RealtimeEvent } from "../../src/contracts/realtime";
import { REQUEST_GUARD_MESSAGES } from "../../src/server/http/request-guards";
import { control } from "./support/emulator-control";
import { buyProduct, createProduct, readySeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let otherSeller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  seller = await readySeller(t);
  otherSeller = await readySeller(t);
});
afterAll(async () => {
  await t.close();
});
afterEach(() => t.clock.reset());

const KEY_FORMAT = /^[0-9A-HJKMNP-TV-Z]{8}(-[0-9A-HJKMNP-TV-Z]{8}){3}$/;
const SELLER_SITE = "https://shop.seller-site.example";
let ipCounter = 0;
/** A fresh client address, so per-IP limits only bite where a test means them to. */
const freshIp = () => `198.51.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

const licensedProduct = (fields: Record<string, unknown> = {}) =>
  createProduct(t, seller.cookie, { issueLicenseKeys: true, ...fields }, { cover: false });
const keyOf = (orderId: string) =>
  t.db.selectFrom("license_keys").selectAll().where("order_id", "=", orderId).executeTakeFirst();
const orderOf = (orderId: string) =>
  t.db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();

/** A paid order of the product and its key. */
async function paidOrderWithKey(productId: string, email = `buyer-${Date.now()}-${++ipCounter}@example.com`) {
  const orderId = await buyProduct(t, productId, email);
  const key = (await keyOf(orderId))?.key;
  expect(key).toMatch(KEY_FORMAT);
  return { orderId, key: key!, email };
}

/**
 * What the seller's software sends: JSON or a form, with no Origin and no cookie (desktop software), or
 * from a browser on the seller's own site (`from: "site"`: cross-site, as Fetch Metadata says).
 */
function verify(
  fields: Record<string, unknown>,
  options: { form?: boolean; ip?: string; from?: "software" | "site" } = {},
): Promise<LightMyRequestResponse> {
  const site = options.from === "site" ? { origin: SELLER_SITE, "sec-fetch-site": "cross-site" } : {};
  return t.app.server.inject({
    method: "POST",
    url: "/api/v1/licenses/verify",
    remoteAddress: options.ip ?? freshIp(),
    headers: {
      ...site,
      "content-type": options.form ? "application/x-www-form-urlencoded" : "application/json",
    },
    payload: options.form
      ? new URLSearchParams(Object.entries(fields).map(([name, value]) => [name, String(value)])).toString()
      : JSON.stringify(fields),
  });
}

const setDisabled = (orderId: string, disabled: boolean, cookie = seller.cookie) =>
  t.request({ method: "PATCH", url: `/api/licenses/${orderId}`, cookie, body: { disabled } });

describe("issuing keys", () => {
  it("gives each paid order of a license-key product one unique key, and none to other products", async () => {
    const product = await licensedProduct();
    const first = await paidOrderWithKey(product.id);
    const second = await paidOrderWithKey(product.id);
    expect(second.key).not.toBe(first.key);
    expect(await keyOf(first.orderId)).toMatchObject({
      product_id: product.id,
      seller_id: seller.userId,
      uses: 0,
      disabled_at: null,
    });
    // Fulfilment is idempotent: a redelivered webhook makes no second order and no second key.
    const { stripe_session_id: sessionId } = await orderOf(first.orderId);
    const completed = (await control(t.emulator).events()).find(
      (event) =>
        event.type === "checkout.session.completed" && (event.data.object as { id: string }).id === sessionId,
    );
    expect(completed).toBeDefined();
    await control(t.emulator).redeliver(completed!.id);
    const keys = await t.db
      .selectFrom("license_keys")
      .select("key")
      .where("product_id", "=", product.id)
      .execute();
    expect(keys).toHaveLength(2);

    const plain = await createProduct(t, seller.cookie, {}, { cover: false });
    const plainOrder = await buyProduct(t, plain.id, "plain-buyer@example.com");
    expect(await keyOf(plainOrder)).toBeUndefined();
  });

  it("is a product setting on /new and on the edit page; turned on, it applies to new orders only", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const before = await buyProduct(t, product.id, "before-keys@example.com");
    const edited = await t.request({
      method: "PATCH",
      url: `/api/products/${product.id}`,
      cookie: seller.cookie,
      body: { issueLicenseKeys: true },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().issueLicenseKeys).toBe(true);
    const read = await t.request({
      method: "GET",
      url: `/api/products/${product.id}`,
      cookie: seller.cookie,
    });
    expect(read.json().issueLicenseKeys).toBe(true);
    expect(await keyOf(before)).toBeUndefined();
    await paidOrderWithKey(product.id);

    const refused = await t.request({
      method: "PATCH",
      url: `/api/products/${product.id}`,
      cookie: seller.cookie,
      body: { issueLicenseKeys: "yes" },
    });
    expect(refused.statusCode).toBe(400);
    const reread = await t.request({
      method: "GET",
      url: `/api/products/${product.id}`,
      cookie: seller.cookie,
    });
    expect(reread.json().issueLicenseKeys).toBe(true);
  });

  it("gives no key to an order that could not be delivered (refunded at once)", async () => {
    const product = await licensedProduct({ inventoryType: "limited", quantityAvailable: "1" });
    const checkout = await t.request({
      method: "POST",
      url: "/api/checkout",
      body: { productId: product.id },
    });
    const sessionId = new URL(checkout.json().url).pathname.split("/").pop()!;
    // The hold was given back (as the expiry janitor does) and the last unit went to someone else.
    await t.db
      .updateTable("checkouts")
      .set({ reservation: "released" })
      .where("stripe_session_id", "=", sessionId)
      .execute();
    await control(t.emulator).payCheckout(sessionId, "4242424242424242", "too-late@example.com");
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
    expect(await keyOf(orderId)).toBeUndefined();
  });

  it("gives a key to a free product's claim too (same fulfilment, no Stripe)", async () => {
    const product = await licensedProduct({ price: "0" });
    const email = `free-licensee-${Date.now()}@example.com`;
    const claimed = await t.request({
      method: "POST",
      url: "/api/checkout/free",
      body: { productId: product.id, email },
    });
    expect(claimed.statusCode, claimed.body).toBeLessThan(300);
    const order = await t.db
      .selectFrom("orders")
      .select("id")
      .where("product_id", "=", product.id)
      .executeTakeFirstOrThrow();
    expect((await keyOf(order.id))?.key).toMatch(KEY_FORMAT);
    const verified = await verify({ product_id: product.id, license_key: (await keyOf(order.id))!.key });
    expect(verified.json()).toMatchObject({ success: true, uses: 1, purchase: { email, amount_cents: 0 } });
  });

  it("shows the key to the buyer (success lookup, receipt, library) and to the seller (sales)", async () => {
    const product = await licensedProduct();
    const { orderId, key, email } = await paidOrderWithKey(product.id, `shown-${Date.now()}@example.com`);
    const { stripe_session_id: sessionId } = await orderOf(orderId);

    const lookup = await t.request({ method: "GET", url: `/api/orders/by-session/${sessionId}` });
    expect(lookup.json().purchase.licenseKey).toEqual({ key, disabled: false });

    let receipt: { text: string; html: string } | undefined;
    await eventually(async () => {
      receipt = await t.db
        .selectFrom("outbox_emails")
        .select(["text", "html"])
        .where("to_address", "=", email)
        .where("subject", "like", "Your receipt%")
        .executeTakeFirst();
      expect(receipt).toBeDefined();
    });
    expect(receipt!.text).toContain(`Your license key: ${key}`);
    expect(receipt!.html).toContain(key);

    const libraryUrl = new URL(receipt!.text.match(/http:\/\/localhost:3000\/library\?token=\S+/)![0]);
    const token = encodeURIComponent(libraryUrl.searchParams.get("token")!);
    const library = (await t.request({ method: "GET", url: `/api/library?token=${token}` })).json();
    expect(library.purchases[0].licenseKey).toEqual({ key, disabled: false });

    const downloadPath = lookup.json().purchase.downloadPath as string;
    const downloadPage = await t.request({ method: "GET", url: downloadPath });
    expect(downloadPage.statusCode).toBe(200);
    expect(downloadPage.body).toContain(key);

    const sales = (await t.request({ method: "GET", url: "/api/orders", cookie: seller.cookie })).json();
    const sale = sales.sales.find((row: { id: string }) => row.id === orderId);
    expect(sale.license).toEqual({ key, disabled: false, uses: 0 });
  });
});

describe("POST /api/v1/licenses/verify", () => {
  it("answers a valid key with its uses and purchase, counting each use unless told not to", async () => {
    const product = await licensedProduct();
    const { orderId, key, email } = await paidOrderWithKey(product.id);
    const order = await orderOf(orderId);

    const first = await verify({ product_id: product.id, license_key: key });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      success: true,
      uses: 1,
      purchase: {
        order_id: orderId,
        product_id: product.id,
        product_title: "The Guide",
        email,
        amount_cents: 1999,
        currency: "usd",
        created_at: order.created_at.toISOString(),
        license_key: key,
      },
    });
    expect((await verify({ product_id: product.id, license_key: key })).json().uses).toBe(2);

    // increment_uses_count=false, as a JSON boolean and as the text a form sends: answered, not counted.
    const notCounted = await verify({
      product_id: product.id,
      license_key: key,
      increment_uses_count: false,
    });
    expect(notCounted.json()).toMatchObject({ success: true, uses: 2 });
    const formNotCounted = await verify(
      { product_id: product.id, license_key: key, increment_uses_count: "false" },
      { form: true },
    );
    expect(formNotCounted.statusCode, formNotCounted.body).toBe(200);
    expect(formNotCounted.json()).toMatchObject({ success: true, uses: 2 });
    const counted = await verify({ product_id: product.id, license_key: key, increment_uses_count: "true" });
    expect(counted.json().uses).toBe(3);
    expect((await keyOf(orderId))?.uses).toBe(3);

    const bad = await verify({ product_id: product.id, license_key: key, increment_uses_count: "maybe" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      success: false,
      code: "validation_error",
      message: LICENSE_MESSAGES.incrementInvalid,
    });
    expect((await keyOf(orderId))?.uses).toBe(3);
  });

  it("takes a form body, and a key typed in lower case, without dashes or with look-alike letters", async () => {
    const product = await licensedProduct();
    const { key } = await paidOrderWithKey(product.id);
    const form = await verify({ product_id: product.id, license_key: key }, { form: true });
    expect(form.statusCode, form.body).toBe(200);
    expect(form.json()).toMatchObject({ success: true, uses: 1 });

    const typed = ` ${key.replaceAll("-", "").toLowerCase().replaceAll("0", "o").replaceAll("1", "l")} `;
    const retyped = await verify({ product_id: product.id, license_key: typed });
    expect(retyped.statusCode, retyped.body).toBe(200);
    expect(retyped.json().purchase.license_key).toBe(key);
  });

  it("counts concurrent verifications exactly (one atomic increment each)", async () => {
    const product = await licensedProduct();
    const { orderId, key } = await paidOrderWithKey(product.id);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => verify({ product_id: product.id, license_key: key })),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(12).fill(200));
    expect(answers.map((answer) => answer.json().uses).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect((await keyOf(orderId))?.uses).toBe(12);
  });

  it("refuses unknown keys, another product's key, and missing fields with a clear JSON answer", async () => {
    const product = await licensedProduct();
    const otherProduct = await licensedProduct();
    const { orderId, key } = await paidOrderWithKey(product.id);
    const notFound = { success: false, code: "license_not_found", message: LICENSE_MESSAGES.notFound };

    const unknown = await verify({
      product_id: product.id,
      license_key: "AAAAAAAA-BBBBBBBB-CCCCCCCC-DDDDDDDD",
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(notFound);
    const garbage = await verify({ product_id: product.id, license_key: "not a key" });
    expect(garbage.statusCode).toBe(404);
    expect(garbage.json()).toEqual(notFound);
    const wrongProduct = await verify({ product_id: otherProduct.id, license_key: key });
    expect(wrongProduct.statusCode).toBe(404);
    expect(wrongProduct.json()).toEqual(notFound);
    const unknownProduct = await verify({ product_id: "no-such-product", license_key: key });
    expect(unknownProduct.json()).toEqual(notFound);

    const noProduct = await verify({ license_key: key });
    expect(noProduct.statusCode).toBe(400);
    expect(noProduct.json()).toMatchObject({ success: false, message: LICENSE_MESSAGES.productIdMissing });
    const noKey = await verify({ product_id: product.id }, { form: true });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json()).toMatchObject({ success: false, message: LICENSE_MESSAGES.licenseKeyMissing });
    const notJson = await t.app.server.inject({
      method: "POST",
      url: "/api/v1/licenses/verify",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().success).toBe(false);
    const plainText = await t.app.server.inject({
      method: "POST",
      url: "/api/v1/licenses/verify",
      headers: { "content-type": "text/plain" },
      payload: `product_id=${product.id}&license_key=${key}`,
    });
    expect(plainText.statusCode).toBe(415);
    expect(plainText.json()).toMatchObject({ success: false, code: "unsupported_media_type" });
    // None of the refusals counted a use.
    expect((await keyOf(orderId))?.uses).toBe(0);
  });

  it("refuses a disabled key until the seller enables it again; the seller's table follows live", async () => {
    const product = await licensedProduct();
    const { orderId, key } = await paidOrderWithKey(product.id);
    expect((await verify({ product_id: product.id, license_key: key })).json().uses).toBe(1);

    const seen: RealtimeEvent[] = [];
    const unsubscribe = t.events.subscribe(seller.userId, (event) => seen.push(event));
    const disabled = await setDisabled(orderId, true);
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json()).toEqual({ key, disabled: true, uses: 1 });
    // With PostgreSQL the event goes through LISTEN/NOTIFY: it arrives a moment later.
    await eventually(async () => expect(seen).toContainEqual({ type: "sales.changed" }));
    unsubscribe();

    const refused = await verify({ product_id: product.id, license_key: key });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      success: false,
      code: "license_disabled",
      message: LICENSE_MESSAGES.disabled,
    });
    const notCounted = await verify({
      product_id: product.id,
      license_key: key,
      increment_uses_count: false,
    });
    expect(notCounted.statusCode).toBe(403);
    expect((await keyOf(orderId))?.uses).toBe(1);
    const sales = (await t.request({ method: "GET", url: "/api/orders", cookie: seller.cookie })).json();
    expect(sales.sales.find((row: { id: string }) => row.id === orderId).license).toEqual({
      key,
      disabled: true,
      uses: 1,
    });
    const { stripe_session_id: sessionId } = await orderOf(orderId);
    const lookup = await t.request({ method: "GET", url: `/api/orders/by-session/${sessionId}` });
    expect(lookup.json().purchase.licenseKey).toEqual({ key, disabled: true });

    const enabled = await setDisabled(orderId, false);
    expect(enabled.json()).toEqual({ key, disabled: false, uses: 1 });
    const again = await verify({ product_id: product.id, license_key: key });
    expect(again.statusCode).toBe(200);
    expect(again.json().uses).toBe(2);
  });

  it("refuses the key of a refunded order, and stops showing it to the buyer", async () => {
    const product = await licensedProduct();
    const { orderId, key } = await paidOrderWithKey(product.id);
    expect((await verify({ product_id: product.id, license_key: key })).statusCode).toBe(200);

    const refund = await t.request({
      method: "POST",
      url: `/api/orders/${orderId}/refund`,
      cookie: seller.cookie,
    });
    expect(refund.statusCode, refund.body).toBe(204);
    const refused = await verify({ product_id: product.id, license_key: key });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      success: false,
      code: "license_refunded",
      message: LICENSE_MESSAGES.refunded,
    });
    const { stripe_session_id: sessionId } = await orderOf(orderId);
    const lookup = await t.request({ method: "GET", url: `/api/orders/by-session/${sessionId}` });
    expect(lookup.json().purchase).toMatchObject({ status: "refunded", licenseKey: null });
    // Nothing to switch on again: the refund, not the switch, is what refuses it.
    await setDisabled(orderId, false);
    expect((await verify({ product_id: product.id, license_key: key })).statusCode).toBe(403);
  });

  it("is rate limited per IP address and per key", async () => {
    const product = await licensedProduct();
    const { key } = await paidOrderWithKey(product.id);
    // At the start of a window (the app's clock), so the counts below never straddle two windows.
    const windowMs = LICENSE_LIMITS.perIp.windowSeconds * 1000;
    t.clock.advance(windowMs - (t.clock.now().getTime() % windowMs) + 100);

    const ip = freshIp();
    for (let i = 0; i < LICENSE_LIMITS.perIp.limit; i++) {
      const guess = await verify({ product_id: product.id, license_key: `GUESS${i}` }, { ip });
      expect(guess.statusCode).toBe(404);
    }
    const limited = await verify({ product_id: product.id, license_key: key }, { ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      success: false,
      code: "rate_limited",
      message: LICENSE_MESSAGES.tooManyFromIp,
    });
    expect(limited.headers["access-control-allow-origin"]).toBe("*");
    // Another address is not held back by it.
    expect((await verify({ product_id: product.id, license_key: key })).statusCode).toBe(200);

    // One key, from everywhere: the limit counts it wherever the checks come from.
    for (let i = 1; i < LICENSE_LIMITS.perKey.limit; i++) {
      expect((await verify({ product_id: product.id, license_key: key })).statusCode).toBe(200);
    }
    const keyLimited = await verify({ product_id: product.id, license_key: key });
    expect(keyLimited.statusCode).toBe(429);
    expect(keyLimited.json().message).toBe(LICENSE_MESSAGES.tooManyForKey);
  });
});

describe("who may call what", () => {
  it("answers sellers' websites (cross-site, CORS for any origin, no credentials) and their software (no Origin)", async () => {
    const product = await licensedProduct();
    const { key } = await paidOrderWithKey(product.id);

    const fromSite = await verify({ product_id: product.id, license_key: key }, { from: "site", form: true });
    expect(fromSite.statusCode, fromSite.body).toBe(200);
    expect(fromSite.headers["access-control-allow-origin"]).toBe("*");
    expect(fromSite.headers["access-control-allow-credentials"]).toBeUndefined();
    const refusedFromSite = await verify({ product_id: product.id, license_key: "nope" }, { from: "site" });
    expect(refusedFromSite.statusCode).toBe(404);
    expect(refusedFromSite.headers["access-control-allow-origin"]).toBe("*");

    const preflight = await t.app.server.inject({
      method: "OPTIONS",
      url: "/api/v1/licenses/verify",
      headers: {
        origin: SELLER_SITE,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "POST, OPTIONS",
      "access-control-allow-headers": "content-type",
    });

    const fromSoftware = await verify({ product_id: product.id, license_key: key }, { from: "software" });
    expect(fromSoftware.statusCode).toBe(200);
  });

  it("keeps every other route guarded against cross-site requests and form bodies", async () => {
    const product = await licensedProduct();
    const { orderId } = await paidOrderWithKey(product.id);
    const crossSite = { origin: SELLER_SITE, "sec-fetch-site": "cross-site", cookie: seller.cookie };

    const patch = await t.app.server.inject({
      method: "PATCH",
      url: `/api/licenses/${orderId}`,
      headers: { ...crossSite, "content-type": "application/json" },
      payload: JSON.stringify({ disabled: true }),
    });
    expect(patch.statusCode).toBe(403);
    expect(patch.json().message).toBe(REQUEST_GUARD_MESSAGES.crossOrigin);
    const buy = await t.app.server.inject({
      method: "POST",
      url: "/api/checkout",
      headers: { origin: SELLER_SITE, "content-type": "application/json" },
      payload: JSON.stringify({ productId: product.id }),
    });
    expect(buy.statusCode).toBe(403);
    const buyForm = await t.app.server.inject({
      method: "POST",
      url: `/product/${product.id}/buy`,
      headers: { ...crossSite, "content-type": "application/x-www-form-urlencoded" },
      payload: "",
    });
    expect(buyForm.statusCode).toBe(403);
    // Form bodies stay the verify route's (and the product page's forms'): the JSON API refuses them.
    const formToApi = await t.request({
      method: "POST",
      url: "/api/checkout",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `productId=${product.id}`,
    });
    expect(formToApi.statusCode).toBe(415);
    expect((await keyOf(orderId))?.disabled_at).toBeNull();
  });

  it("lets only the signed-in seller of the sale disable its key", async () => {
    const product = await licensedProduct();
    const { orderId, key } = await paidOrderWithKey(product.id);

    const byOther = await setDisabled(orderId, true, otherSeller.cookie);
    expect(byOther.statusCode).toBe(404);
    expect(byOther.json().message).toBe(LICENSE_MESSAGES.noKey);
    const signedOut = await t.request({
      method: "PATCH",
      url: `/api/licenses/${orderId}`,
      body: { disabled: true },
    });
    expect(signedOut.statusCode).toBe(401);
    const badBody = await t.request({
      method: "PATCH",
      url: `/api/licenses/${orderId}`,
      cookie: seller.cookie,
      body: { disabled: "yes" },
    });
    expect(badBody.statusCode).toBe(400);
    expect((await keyOf(orderId))?.disabled_at).toBeNull();
    expect((await verify({ product_id: product.id, license_key: key })).statusCode).toBe(200);

    const plain = await createProduct(t, seller.cookie, {}, { cover: false });
    const keyless = await buyProduct(t, plain.id, "keyless@example.com");
    expect((await setDisabled(keyless, true)).statusCode).toBe(404);

    const otherSales = (
      await t.request({ method: "GET", url: "/api/orders", cookie: otherSeller.cookie })
    ).json();
    expect(otherSales.sales.some((row: { id: string }) => row.id === orderId)).toBe(false);
  });
});
