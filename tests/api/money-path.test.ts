import { createServer, type Socket, connect as tcpConnect } from "node:net";
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ORDER_MESSAGES, PURCHASE_RULES } from "../../src/contracts/orders";
import { localVatChecker } from "../../src/server/adapters/vat-check/vat-checker";
import { createBuyerCheckout } from "../../src/server/features/checkout/create-checkout";
import { OrderChanges } from "../../src/server/features/order-lifecycle/order-changes";
import { minimalPdf } from "../../src/server/features/uploads/test-fixtures";
import { checkoutVisitor } from "../../src/server/http/visitor";
import { control } from "./support/emulator-control";
import { createProduct, quantityOf as quantityOfProduct, readySeller } from "./support/sellers";
import { APP_URL, createTestApp, type TestApp, WEBHOOK_SECRETS } from "./support/test-app";
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
afterEach(() => {
  t.clock.reset();
  webhooks(true);
});

const MINUTE_MS = 60_000;
const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const limitedProduct = (units: number) =>
  createProduct(
    t,
    seller.cookie,
    { inventoryType: "limited", quantityAvailable: String(units) },
    { cover: false },
  );
/** Each named browser keeps the cookie Buy Now gives it, as a real one does. */
const browserCookies = new Map<string, string>();
async function buyNow(productId: string, visitor: { ip?: string; browser?: string } = {}) {
  const browser = visitor.browser ?? `browser-${Math.random()}`;
  const cookie = browserCookies.get(browser);
  const response = await t.request({
    method: "POST",
    url: "/api/checkout",
    body: { productId },
    ...(visitor.ip ? { ip: visitor.ip } : {}),
    ...(cookie ? { cookie } : {}),
  });
  const set = response.cookies.find((c) => c.name === "flatfee_checkout");
  if (set) browserCookies.set(browser, `${set.name}=${set.value}`);
  return response;
}
const quantityOf = (productId: string) => quantityOfProduct(t, productId);
const checkoutsOf = (productId: string) =>
  t.db
    .selectFrom("checkouts")
    .selectAll()
    .where("product_id", "=", productId)
    .orderBy("created_at")
    .execute();
const ordersOf = (productId: string) =>
  t.db.selectFrom("orders").selectAll().where("product_id", "=", productId).execute();
const emailsTo = (to: string) =>
  t.db.selectFrom("outbox_emails").selectAll().where("to_address", "=", to).execute();
const stripeSession = (sessionId: string) =>
  t.stripe.checkout.sessions.retrieve(sessionId, {}, { stripeAccount: account });
const settle = () => t.app.settleCheckouts(t.clock.now());

/** Connect webhooks on or off: off is a webhook secret gone wrong, or an endpoint down for days. */
function webhooks(on: boolean) {
  t.emulator.configureWebhooks({
    platform: { url: `${t.url}/api/webhooks/stripe`, secret: WEBHOOK_SECRETS.platform },
    ...(on
      ? { connect: { url: `${t.url}/api/webhooks/stripe-connect`, secret: WEBHOOK_SECRETS.connect } }
      : {}),
  });
}

describe("holds per visitor", () => {
  it("one visitor holds one unit of a product: Buy Now again answers the same open checkout", async () => {
    const product = await limitedProduct(3);
    const visitor = { ip: "203.0.113.7", browser: "first-buyer" };
    const urls: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await buyNow(product.id, visitor);
      expect(response.statusCode, response.body).toBe(200);
      urls.push(response.json().url);
    }
    expect(new Set(urls).size).toBe(1);
    expect(await quantityOf(product.id)).toBe(2);
    // The browser is told apart by a cookie of its own, not by its name, which many share.
    expect(browserCookies.get("first-buyer")).toMatch(/^flatfee_checkout=[\w-]{22}$/);
    // Everyone else can still buy the rest.
    const other = await buyNow(product.id, { ip: "203.0.113.8" });
    expect(other.statusCode).toBe(200);
    expect(other.json().url).not.toBe(urls[0]);
    expect(await quantityOf(product.id)).toBe(1);
  });

  it("the buyer holding the last unit gets their checkout back; everyone else hears it sold out", async () => {
    const product = await limitedProduct(1);
    const visitor = { ip: "203.0.113.9", browser: "last-unit-buyer" };
    const first = await buyNow(product.id, visitor);
    const again = await buyNow(product.id, visitor);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().url).toBe(first.json().url);
    const other = await buyNow(product.id, { ip: "203.0.113.10" });
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toBe(ORDER_MESSAGES.soldOut);
  });

  it("another browser on the same network, or in the same IPv6 /64, cannot take a second unit", async () => {
    const product = await limitedProduct(3);
    expect((await buyNow(product.id, { ip: "203.0.113.20", browser: "firefox" })).statusCode).toBe(200);
    const otherBrowser = await buyNow(product.id, { ip: "203.0.113.20", browser: "chrome" });
    expect(otherBrowser.statusCode).toBe(409);
    expect(otherBrowser.json().message).toBe(ORDER_MESSAGES.checkoutAlreadyOpen);

    // A new address from the same IPv6 line is the same network: no new unit, whatever the browser.
    const first = await buyNow(product.id, { ip: "2001:db8:7:7::10", browser: "on-ipv6" });
    expect(first.statusCode).toBe(200);
    const sameSubnet = await buyNow(product.id, { ip: "2001:db8:7:7:ffff:1:2:3", browser: "on-ipv6" });
    expect(sameSubnet.json().url).toBe(first.json().url);
    const sameSubnetOtherBrowser = await buyNow(product.id, { ip: "2001:db8:7:7::99", browser: "chrome" });
    expect(sameSubnetOtherBrowser.statusCode).toBe(409);
    expect(await quantityOf(product.id)).toBe(1);
    // The IP itself is never stored.
    const stored = JSON.stringify(await checkoutsOf(product.id));
    expect(stored).not.toContain("203.0.113.20");
    expect(stored).not.toContain("2001:db8");
  });

  it("another browser on the network holding the last unit hears it sold out, like everyone else", async () => {
    const product = await limitedProduct(1);
    expect((await buyNow(product.id, { ip: "203.0.113.21", browser: "firefox" })).statusCode).toBe(200);
    const otherBrowser = await buyNow(product.id, { ip: "203.0.113.21", browser: "chrome" });
    expect(otherBrowser.statusCode).toBe(409);
    expect(otherBrowser.json().message).toBe(ORDER_MESSAGES.soldOut);
  });

  it("once the visitor's checkout has ended, Buy Now starts a new one", async () => {
    const product = await limitedProduct(2);
    const visitor = { ip: "203.0.113.30", browser: "returning" };
    webhooks(false);
    const first = (await buyNow(product.id, visitor)).json().url;
    await control(t.emulator).expireCheckout(sessionIdOf(first));
    // No expiry event came: Buy Now asks Stripe, gives the old unit back and takes a new one.
    const second = await buyNow(product.id, visitor);
    expect(second.statusCode).toBe(200);
    expect(second.json().url).not.toBe(first);
    expect(await quantityOf(product.id)).toBe(1);
    expect((await checkoutsOf(product.id)).map((c) => c.reservation)).toEqual(["released", "held"]);
  });

  it("one visitor pressing Buy Now many times at once takes one unit", async () => {
    const product = await limitedProduct(3);
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => buyNow(product.id, { ip: "203.0.113.40" })),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    expect(new Set(responses.filter((r) => r.statusCode === 200).map((r) => r.json().url)).size).toBe(1);
    expect(await quantityOf(product.id)).toBe(2);
  });
});

/**
 * A Stripe that receives requests but never answers them: the process asking dies (or hangs) while it
 * waits. With `forward`, the request reaches the emulator first, so the session exists on Stripe.
 */
async function silentStripe(forward: boolean) {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    const upstream = forward ? tcpConnect(t.emulator.port, t.emulator.host) : undefined;
    if (upstream) {
      sockets.add(upstream);
      upstream.resume();
    }
    client.on("data", (chunk: Buffer) => {
      requests.push(chunk.toString("latin1"));
      upstream?.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const stripe = new Stripe("sk_test_silent", {
    host: "127.0.0.1",
    port,
    protocol: "http",
    maxNetworkRetries: 0,
  });
  return {
    stripe,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("a crash while Stripe is asked", () => {
  const crashDuringCreate = async (forward: boolean) => {
    const product = await limitedProduct(3);
    const silent = await silentStripe(forward);
    const now = t.clock.now();
    const pending = createBuyerCheckout(
      {
        db: t.db,
        stripe: silent.stripe,
        appUrl: APP_URL,
        outbox: t.outbox,
        events: t.events,
        linkKey: "unused",
        // No order is made here: the checkout never gets as far as fulfilment.
        orderChanges: new OrderChanges([]),
        vatChecker: localVatChecker,
      },
      product.id,
      checkoutVisitor("visitor-key", "203.0.113.50", "Firefox"),
      now,
    );
    pending.catch(() => {});
    await eventually(async () => expect(silent.requests.join("")).toContain("/v1/checkout/sessions"));
    return { product, silent, pending };
  };

  it("the hold is recorded with its unit before Stripe is asked; the janitor gives back a unit whose session never came to exist", async () => {
    const { product, silent, pending } = await crashDuringCreate(false);
    // The process is as good as dead now: the unit is taken, and recorded.
    expect(await quantityOf(product.id)).toBe(2);
    const [hold] = await checkoutsOf(product.id);
    expect(hold).toMatchObject({ reservation: "held", state: "open", stripe_session_id: null });
    expect(silent.requests.join("")).toMatch(new RegExp(`idempotency-key: checkout-${hold!.id}`, "i"));

    // Young holds are left alone: their request may still be on its way.
    await settle();
    expect(await quantityOf(product.id)).toBe(2);
    t.clock.advance(6 * MINUTE_MS);
    await settle();
    expect(await quantityOf(product.id)).toBe(3);
    expect((await checkoutsOf(product.id))[0]).toMatchObject({ reservation: "released", state: "expired" });
    await silent.close();
    await expect(pending).rejects.toThrow();
  });

  it("a session Stripe created for a hold nobody recorded is found by its hold, expired, and the unit given back", async () => {
    const { product, silent, pending } = await crashDuringCreate(true);
    const [hold] = await checkoutsOf(product.id);
    let created: Stripe.Checkout.Session | undefined;
    await eventually(async () => {
      const sessions = await t.stripe.checkout.sessions.list({ limit: 100 }, { stripeAccount: account });
      created = sessions.data.find((session) => session.metadata?.hold_id === hold!.id);
      expect(created?.status).toBe("open");
    });
    t.clock.advance(6 * MINUTE_MS);
    await settle();
    expect((await stripeSession(created!.id)).status).toBe("expired");
    expect(await quantityOf(product.id)).toBe(3);
    expect((await checkoutsOf(product.id))[0]).toMatchObject({
      stripe_session_id: created!.id,
      reservation: "released",
      state: "expired",
    });
    await silent.close();
    await expect(pending).rejects.toThrow();
  });
});

/** A correctly signed Connect event, saying whatever its sender likes. */
function sendConnectEvent(type: string, eventAccount: string, session: Record<string, unknown>) {
  const payload = JSON.stringify({
    id: `evt_forged_${Math.random().toString(36).slice(2)}`,
    object: "event",
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    type,
    account: eventAccount,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: { object: "checkout.session", mode: "payment", metadata: {}, ...session } },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRETS.connect });
  return t.request({
    method: "POST",
    url: "/api/webhooks/stripe-connect",
    headers: { "stripe-signature": signature, "content-type": "application/json" },
    body: payload,
  });
}

describe("Connect events are only hints", () => {
  const forgedPayment = (sessionId: string) => ({
    id: sessionId,
    status: "complete",
    payment_status: "paid",
    amount_total: 1,
    customer_details: { email: "thief@example.com" },
    payment_intent: null,
  });

  it("a completed event from another account, or for an unpaid session, fulfils nothing", async () => {
    const product = await limitedProduct(2);
    const sessionId = sessionIdOf((await buyNow(product.id)).json().url);
    const { account: rivalAccount } = await readySeller(t);
    expect(
      (await sendConnectEvent("checkout.session.completed", rivalAccount, forgedPayment(sessionId)))
        .statusCode,
    ).toBe(200);
    expect(
      (await sendConnectEvent("checkout.session.completed", account, forgedPayment(sessionId))).statusCode,
    ).toBe(200);
    expect(await ordersOf(product.id)).toHaveLength(0);
    // Nor does a forged expiry give the unit back while the buyer is still paying.
    await sendConnectEvent("checkout.session.expired", account, { id: sessionId, status: "expired" });
    expect(await quantityOf(product.id)).toBe(1);
    expect((await checkoutsOf(product.id))[0]!.reservation).toBe("held");
  });

  it("a paid session is fulfilled from what Stripe answers, not from what the event says", async () => {
    const product = await limitedProduct(2);
    const sessionId = sessionIdOf((await buyNow(product.id)).json().url);
    webhooks(false);
    await control(t.emulator).payCheckout(sessionId, "4242424242424242", "real-buyer@example.com");
    expect(
      (await sendConnectEvent("checkout.session.completed", account, forgedPayment(sessionId))).statusCode,
    ).toBe(200);
    const orders = await ordersOf(product.id);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ amount_cents: 1999, customer_email: "real-buyer@example.com" });
    expect(await emailsTo("thief@example.com")).toHaveLength(0);
  });
});

describe("reconciliation with Stripe", () => {
  it("a payment whose webhook never arrives is fulfilled by the job, once, with one receipt", async () => {
    const product = await limitedProduct(2);
    const sessionId = sessionIdOf((await buyNow(product.id)).json().url);
    webhooks(false);
    const email = `unheard-${Date.now()}@example.com`;
    await control(t.emulator).payCheckout(sessionId, "4242424242424242", email);
    expect(await ordersOf(product.id)).toHaveLength(0);

    await Promise.all([settle(), settle()]);
    await settle();
    const orders = await ordersOf(product.id);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      stripe_session_id: sessionId,
      customer_email: email,
      status: "completed",
    });
    expect((await emailsTo(email)).map((mail) => mail.subject)).toEqual(["Your receipt: The Guide"]);
    expect(await quantityOf(product.id)).toBe(1);
    expect((await checkoutsOf(product.id))[0]).toMatchObject({ reservation: "confirmed", state: "paid" });

    // The webhook arriving after all changes nothing.
    webhooks(true);
    const completed = (await control(t.emulator).events()).find(
      (e) => e.type === "checkout.session.completed" && (e.data.object as { id: string }).id === sessionId,
    )!;
    await control(t.emulator).redeliver(completed.id);
    expect(await ordersOf(product.id)).toHaveLength(1);
    expect(await emailsTo(email)).toHaveLength(1);
  });

  it("the unit of a stale hold whose session was paid is never given back", async () => {
    const product = await limitedProduct(1);
    const sessionId = sessionIdOf((await buyNow(product.id)).json().url);
    webhooks(false);
    await control(t.emulator).payCheckout(sessionId, "4242424242424242", "patient@example.com");
    t.clock.advance(PURCHASE_RULES.checkoutMinutes * MINUTE_MS + 20 * MINUTE_MS);
    await settle();
    expect(await quantityOf(product.id)).toBe(0);
    expect(await ordersOf(product.id)).toHaveLength(1);
    expect((await checkoutsOf(product.id))[0]!.reservation).toBe("confirmed");
  });

  it("a stale hold whose session is still open is expired on Stripe before its unit goes back", async () => {
    const product = await limitedProduct(1);
    const sessionId = sessionIdOf((await buyNow(product.id)).json().url);
    webhooks(false);
    t.clock.advance(PURCHASE_RULES.checkoutMinutes * MINUTE_MS + 20 * MINUTE_MS);
    await settle();
    expect((await stripeSession(sessionId)).status).toBe("expired");
    expect(await quantityOf(product.id)).toBe(1);
    // Nobody can pay for the unit that went back.
    await expect(control(t.emulator).payCheckout(sessionId)).rejects.toThrow(/no longer active/);
  });

  it("a stale hold whose session expired without an event gives its unit back, once", async () => {
    const product = await limitedProduct(1);
    const sessionId = sessionIdOf((await buyNow(product.id)).json().url);
    webhooks(false);
    await control(t.emulator).expireCheckout(sessionId);
    t.clock.advance(PURCHASE_RULES.checkoutMinutes * MINUTE_MS + 20 * MINUTE_MS);
    await Promise.all([settle(), settle()]);
    expect(await quantityOf(product.id)).toBe(1);
    expect((await checkoutsOf(product.id))[0]).toMatchObject({ reservation: "released", state: "expired" });
  });
});

describe("storage links", () => {
  /** A buyer's purchase, and a fresh storage link from one Download click. */
  async function purchaseWithStorageLink(email: string) {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const sessionId = sessionIdOf((await buyNow(product.id)).json().url);
    // The success page fulfils it: no webhook is left in flight when the test ends.
    webhooks(false);
    await control(t.emulator).payCheckout(sessionId, "4242424242424242", email);
    let token = "";
    await eventually(async () => {
      const lookup = await t.request({ method: "GET", url: `/api/orders/by-session/${sessionId}` });
      expect(lookup.statusCode).toBe(200);
      token = lookup.json().purchase.downloadPath.replace("/download/", "");
    });
    const started = await t.request({ method: "POST", url: `/api/downloads/${token}` });
    expect(started.statusCode, started.body).toBe(200);
    const order = (await ordersOf(product.id))[0]!;
    return { url: started.json().url as string, token, order };
  }
  const fetchFile = (url: string, range?: string) =>
    t.app.server.inject({ method: "GET", url, headers: range ? { range } : {} });

  it("one storage link serves one download; resuming it works, a second full download does not", async () => {
    const { url } = await purchaseWithStorageLink("once@example.com");
    // A "resume" of a download that never started is a download in disguise; a HEAD takes nothing.
    expect((await fetchFile(url, "bytes=5-")).statusCode).toBe(403);
    expect((await t.app.server.inject({ method: "HEAD", url })).statusCode).toBe(200);
    const first = await fetchFile(url);
    expect(first.statusCode).toBe(200);
    expect(first.rawPayload.equals(minimalPdf())).toBe(true);
    const resumed = await fetchFile(url, "bytes=5-");
    expect(resumed.statusCode).toBe(206);
    expect(resumed.rawPayload.equals(minimalPdf().subarray(5))).toBe(true);
    for (const again of [undefined, "bytes=0-", `bytes=-${minimalPdf().length}`]) {
      const refused = await fetchFile(url, again);
      expect(refused.statusCode, again).toBe(403);
      expect(refused.json().message).toBe(ORDER_MESSAGES.storageLinkUsed);
    }
  });

  it("two full downloads of one link at once: exactly one is served", async () => {
    const { url } = await purchaseWithStorageLink("racer@example.com");
    const answers = await Promise.all(Array.from({ length: 5 }, () => fetchFile(url)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 403, 403, 403, 403]);
  });

  it("a refund stops a storage link at once, used or not", async () => {
    const { url: used, token, order } = await purchaseWithStorageLink("refund-mid@example.com");
    expect((await fetchFile(used)).statusCode).toBe(200);
    const unused = (await t.request({ method: "POST", url: `/api/downloads/${token}` })).json().url;
    const refunded = await t.request({
      method: "POST",
      url: `/api/orders/${order.id}/refund`,
      cookie: seller.cookie,
    });
    expect(refunded.statusCode).toBe(204);
    expect((await fetchFile(used, "bytes=5-")).statusCode).toBe(403);
    expect((await fetchFile(unused)).statusCode).toBe(403);
  });

  it("a storage link only lives as long as a download needs to start", async () => {
    const { url } = await purchaseWithStorageLink("short@example.com");
    const payload = url.split("/files/download/")[1]!.split(".")[0]!;
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    expect(claims.expiresAt - Date.now() / 1000).toBeLessThanOrEqual(60);
  });
});
