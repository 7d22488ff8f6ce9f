import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_LIMITS, WEBHOOK_MESSAGES } from "../../src/contracts/webhooks";
import type { Resolver } from "../../src/server/features/seller-webhooks/address-policy";
import { RETRY_WINDOW_MS, retryDelayMs } from "../../src/server/features/seller-webhooks/deliver-webhooks";
import {
  DELIVERY_RETENTION_MS,
  pruneWebhookDeliveries,
} from "../../src/server/features/seller-webhooks/prune-deliveries";
import { buyProduct, createProduct, readySeller, subscribedSeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";
import { startWebhookReceiver, verifyStandardWebhook } from "./support/webhook-receiver";

/** Names under .flatfee-test resolve to the loopback address, as a hostile DNS answer would. */
const testResolver: Resolver = async (hostname) => {
  if (hostname.endsWith(".flatfee-test")) return [{ address: "127.0.0.1", family: 4 }];
  throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
};

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
beforeAll(async () => {
  t = await createTestApp({
    listen: true,
    // As WEBHOOK_ALLOW_PRIVATE_HOSTS=127.0.0.1 would: the local receiver is reachable, nothing else private.
    webhookPolicy: { requireHttps: false, allowPrivateHosts: ["127.0.0.1"] },
    webhookResolver: testResolver,
  });
  seller = await readySeller(t);
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
afterEach(async () => {
  t.clock.reset();
  receiver.reset();
  await t.db.deleteFrom("webhook_endpoints").execute();
});

type Cookie = string;
async function addEndpoint(cookie: Cookie, events: string[], path = "/hooks") {
  const response = await t.request({
    method: "POST",
    url: "/api/webhook-endpoints",
    cookie,
    body: { url: `${receiver.url}${path}`, events },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { endpoint: { id: string }; secret: string };
}
const deliveriesOf = async (endpointId: string, cookie = seller.cookie) => {
  const response = await t.request({
    method: "GET",
    url: `/api/webhook-endpoints/${endpointId}/deliveries`,
    cookie,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().deliveries as Array<{
    id: string;
    eventType: string;
    status: string;
    attempts: number;
    lastResponseStatus: number | null;
    lastError: string | null;
    lastAttemptAt: string | null;
    nextAttemptAt: string | null;
  }>;
};
const receivedAt = (path: string) => receiver.received.filter((webhook) => webhook.path === path);
const bodyOf = (webhook: { body: string }) => JSON.parse(webhook.body);

describe("sale.completed", () => {
  it("reaches the seller's receiver, signed so that it verifies with the endpoint's secret", async () => {
    const { endpoint, secret } = await addEndpoint(seller.cookie, ["sale.completed"]);
    const revealed = await t.request({
      method: "GET",
      url: `/api/webhook-endpoints/${endpoint.id}/secret`,
      cookie: seller.cookie,
    });
    expect(revealed.json().secret).toBe(secret);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);

    const product = await createProduct(t, seller.cookie, { title: "Synth Presets" }, { cover: false });
    const orderId = await buyProduct(t, product.id, "fan@example.com");

    // Nothing drives the queue here: the committed sale kicks the delivery by itself.
    await eventually(async () => expect(receivedAt("/hooks")).toHaveLength(1));
    const [webhook] = receivedAt("/hooks");
    expect(verifyStandardWebhook(secret, webhook!)).toBe(true);
    expect(verifyStandardWebhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`, webhook!)).toBe(false);
    expect(verifyStandardWebhook(secret, { ...webhook!, body: webhook!.body.replace("1999", "1") })).toBe(
      false,
    );
    expect(webhook!.headers["content-type"]).toBe("application/json");
    expect(Math.abs(Number(webhook!.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);

    const body = bodyOf(webhook!);
    expect(body).toEqual({
      type: "sale.completed",
      timestamp: expect.any(String),
      data: {
        order_id: orderId,
        product_id: product.id,
        product_title: "Synth Presets",
        email: "fan@example.com",
        amount: 1999,
        currency: "usd",
        settlement_amount: 1999,
        settlement_currency: "usd",
        discount_code: null,
        status: "completed",
        created_at: expect.any(String),
        refunded_at: null,
        tax: null,
        dispute_status: null,
        dispute: null,
      },
    });
    await eventually(async () => {
      const [delivery] = await deliveriesOf(endpoint.id);
      expect(delivery).toMatchObject({
        id: webhook!.headers["webhook-id"],
        eventType: "sale.completed",
        status: "succeeded",
        attempts: 1,
        lastResponseStatus: 204,
        nextAttemptAt: null,
      });
    });
  });

  it("a receiver that fails twice gets it on the third try, with the same id and a fresh signature", async () => {
    const { endpoint, secret } = await addEndpoint(seller.cookie, ["sale.completed"], "/flaky");
    receiver.answerWith(500, 503);
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    await buyProduct(t, product.id, "patient@example.com");

    await eventually(async () => expect((await deliveriesOf(endpoint.id))[0]?.attempts).toBe(1));
    let [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "pending", lastResponseStatus: 500 });
    const firstTry = Date.parse(delivery!.nextAttemptAt!) - retryDelayMs(1);

    // Not due yet: nothing is sent.
    t.clock.advance(3_000);
    await t.app.jobs.runDue();
    expect((await deliveriesOf(endpoint.id))[0]?.attempts).toBe(1);
    t.clock.advance(retryDelayMs(1));
    await t.app.jobs.runDue();
    [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 2, lastResponseStatus: 503 });
    expect(Date.parse(delivery!.nextAttemptAt!) - Date.parse(delivery!.lastAttemptAt!)).toBe(retryDelayMs(2));

    t.clock.advance(retryDelayMs(2));
    await t.app.jobs.runDue();
    [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({
      status: "succeeded",
      attempts: 3,
      lastResponseStatus: 204,
      nextAttemptAt: null,
    });

    const tries = receivedAt("/flaky");
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((webhook) => webhook.headers["webhook-id"]))).toEqual(new Set([delivery!.id]));
    expect(new Set(tries.map((webhook) => webhook.body)).size).toBe(1);
    const timestamps = tries.map((webhook) => Number(webhook.headers["webhook-timestamp"]));
    expect(timestamps[2]! - timestamps[0]!).toBeGreaterThanOrEqual(
      (retryDelayMs(1) + retryDelayMs(2)) / 1000,
    );
    expect(Math.abs(timestamps[0]! * 1000 - firstTry)).toBeLessThan(2_000);
    for (const webhook of tries) expect(verifyStandardWebhook(secret, webhook)).toBe(true);
  });

  it("is retried with backoff for 3 days, then marked failed", async () => {
    const { endpoint } = await addEndpoint(seller.cookie, ["sale.completed"], "/down");
    // 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then every 10 h: 12 tries fit in 3 days.
    receiver.answerWith(...Array(12).fill(500));
    const sent = await t.request({
      method: "POST",
      url: `/api/webhook-endpoints/${endpoint.id}/examples`,
      cookie: seller.cookie,
      body: { eventType: "sale.completed" },
    });
    expect(sent.statusCode, sent.body).toBe(202);
    await eventually(async () => expect((await deliveriesOf(endpoint.id))[0]?.attempts).toBe(1));
    const started = t.clock.now().getTime();
    for (let round = 0; round < 30; round++) {
      const [delivery] = await deliveriesOf(endpoint.id);
      if (delivery!.status !== "pending") break;
      t.clock.advance(Date.parse(delivery!.nextAttemptAt!) - t.clock.now().getTime());
      await t.app.jobs.runDue();
    }
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "failed", lastResponseStatus: 500, nextAttemptAt: null });
    expect(delivery!.attempts).toBe(12);
    expect(receivedAt("/down")).toHaveLength(12);
    expect(t.clock.now().getTime() - started).toBeLessThanOrEqual(RETRY_WINDOW_MS);
    receiver.reset();

    // Resend starts a new round at once: the same message, delivered now.
    const resent = await t.request({
      method: "POST",
      url: `/api/webhook-deliveries/${delivery!.id}/resend`,
      cookie: seller.cookie,
    });
    expect(resent.statusCode, resent.body).toBe(202);
    await eventually(async () =>
      expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: "succeeded", attempts: 13 }),
    );
    expect(receivedAt("/down").map((webhook) => webhook.headers["webhook-id"])).toEqual([delivery!.id]);
    expect(bodyOf(receivedAt("/down")[0]!)).toMatchObject({ type: "sale.completed", test: true });
  });
});

describe("sale.refunded and product.sold_out", () => {
  it("sends sale.refunded when the seller refunds", async () => {
    const { secret } = await addEndpoint(seller.cookie, ["sale.refunded"], "/refunds");
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const orderId = await buyProduct(t, product.id, "regret@example.com");
    const refund = await t.request({
      method: "POST",
      url: `/api/orders/${orderId}/refund`,
      cookie: seller.cookie,
    });
    expect(refund.statusCode, refund.body).toBe(204);

    await eventually(async () => expect(receivedAt("/refunds")).toHaveLength(1));
    const [webhook] = receivedAt("/refunds");
    expect(verifyStandardWebhook(secret, webhook!)).toBe(true);
    expect(bodyOf(webhook!)).toMatchObject({
      type: "sale.refunded",
      data: { order_id: orderId, email: "regret@example.com", amount: 1999, status: "refunded" },
    });
    expect(bodyOf(webhook!).data.refunded_at).toEqual(expect.any(String));
  });

  it("sends product.sold_out when the last unit is sold, not before", async () => {
    const { endpoint } = await addEndpoint(seller.cookie, ["product.sold_out"], "/stock");
    const product = await createProduct(
      t,
      seller.cookie,
      { title: "Signed Print", inventoryType: "limited", quantityAvailable: "2" },
      { cover: false },
    );
    await buyProduct(t, product.id, "first@example.com");
    // One unit is left: no event (the sale itself was not chosen for this endpoint).
    await t.app.jobs.runDue();
    expect(await deliveriesOf(endpoint.id)).toHaveLength(0);

    await buyProduct(t, product.id, "second@example.com");
    await eventually(async () => expect(receivedAt("/stock")).toHaveLength(1));
    expect(bodyOf(receivedAt("/stock")[0]!)).toEqual({
      type: "product.sold_out",
      timestamp: expect.any(String),
      data: { product_id: product.id, product_title: "Signed Print", sold_out_at: expect.any(String) },
    });
    expect((await deliveriesOf(endpoint.id)).map((delivery) => delivery.eventType)).toEqual([
      "product.sold_out",
    ]);
  });
});

describe("endpoints", () => {
  it("rotating the secret signs later deliveries with the new one only", async () => {
    const { endpoint, secret } = await addEndpoint(seller.cookie, ["sale.completed"], "/rotated");
    const rotated = await t.request({
      method: "POST",
      url: `/api/webhook-endpoints/${endpoint.id}/rotate-secret`,
      cookie: seller.cookie,
    });
    const fresh = rotated.json().secret as string;
    expect(fresh).not.toBe(secret);
    await t.request({
      method: "POST",
      url: `/api/webhook-endpoints/${endpoint.id}/examples`,
      cookie: seller.cookie,
      body: { eventType: "sale.completed" },
    });
    await eventually(async () => expect(receivedAt("/rotated")).toHaveLength(1));
    expect(verifyStandardWebhook(fresh, receivedAt("/rotated")[0]!)).toBe(true);
    expect(verifyStandardWebhook(secret, receivedAt("/rotated")[0]!)).toBe(false);
  });

  it("refuses bad input with a clear message and stores nothing", async () => {
    const cases: Array<[unknown, string]> = [
      [{ url: "", events: ["sale.completed"] }, WEBHOOK_MESSAGES.urlRequired],
      [{ url: "not a url", events: ["sale.completed"] }, WEBHOOK_MESSAGES.urlInvalid],
      [{ url: "ftp://example.com/x", events: ["sale.completed"] }, WEBHOOK_MESSAGES.urlScheme],
      [
        { url: `https://example.com/${"a".repeat(2000)}`, events: ["sale.completed"] },
        WEBHOOK_MESSAGES.urlTooLong,
      ],
      [{ url: "https://example.com/x", events: [] }, WEBHOOK_MESSAGES.eventsRequired],
      [{ url: "https://example.com/x" }, WEBHOOK_MESSAGES.eventsRequired],
    ];
    for (const [body, message] of cases) {
      const response = await t.request({
        method: "POST",
        url: "/api/webhook-endpoints",
        cookie: seller.cookie,
        body,
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toBe(message);
    }
    const subscription = await t.request({
      method: "POST",
      url: "/api/webhook-endpoints",
      cookie: seller.cookie,
      body: { url: "https://example.com/x", events: ["customer.subscription.updated"] },
    });
    expect(subscription.statusCode).toBe(400);
    expect(await t.db.selectFrom("webhook_endpoints").selectAll().execute()).toHaveLength(0);
  });

  it("refuses private addresses when saved, and names resolving to one when delivering", async () => {
    for (const url of [
      "http://10.0.0.1/hook",
      "http://192.168.1.20/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]:8080/hook",
      "http://[::ffff:127.0.0.1]/hook",
      "http://localhost:3000/hook",
    ]) {
      const response = await t.request({
        method: "POST",
        url: "/api/webhook-endpoints",
        cookie: seller.cookie,
        body: { url, events: ["sale.completed"] },
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message).toBe(WEBHOOK_MESSAGES.privateAddress);
    }

    const created = await t.request({
      method: "POST",
      url: "/api/webhook-endpoints",
      cookie: seller.cookie,
      body: { url: `http://rebind.flatfee-test:${receiver.port}/sneaky`, events: ["sale.completed"] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const endpointId = created.json().endpoint.id as string;
    await t.request({
      method: "POST",
      url: `/api/webhook-endpoints/${endpointId}/examples`,
      cookie: seller.cookie,
      body: { eventType: "sale.completed" },
    });
    await eventually(async () => expect((await deliveriesOf(endpointId))[0]?.attempts).toBe(1));
    expect((await deliveriesOf(endpointId))[0]).toMatchObject({
      status: "pending",
      lastResponseStatus: null,
      lastError: WEBHOOK_MESSAGES.deliveryRefused,
    });
    // How the server resolved the name stays out of what the seller sees.
    const shown = await t.request({
      method: "GET",
      url: `/api/webhook-endpoints/${endpointId}/deliveries`,
      cookie: seller.cookie,
    });
    expect(shown.body).not.toMatch(/127\.0\.0\.1|resolves|rebind\.flatfee-test/);
    expect(receivedAt("/sneaky")).toHaveLength(0);
  });

  it("allows at most 5 endpoints per seller", async () => {
    for (let i = 0; i < WEBHOOK_LIMITS.endpointsPerSeller; i++)
      await addEndpoint(seller.cookie, ["sale.completed"]);
    const sixth = await t.request({
      method: "POST",
      url: "/api/webhook-endpoints",
      cookie: seller.cookie,
      body: { url: `${receiver.url}/hooks`, events: ["sale.completed"] },
    });
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json().message).toBe(WEBHOOK_MESSAGES.tooManyEndpoints);
    const list = await t.request({ method: "GET", url: "/api/webhook-endpoints", cookie: seller.cookie });
    expect(list.json().endpoints).toHaveLength(WEBHOOK_LIMITS.endpointsPerSeller);
  });

  it("only sends example events the endpoint chose", async () => {
    const { endpoint } = await addEndpoint(seller.cookie, ["product.sold_out"]);
    const refused = await t.request({
      method: "POST",
      url: `/api/webhook-endpoints/${endpoint.id}/examples`,
      cookie: seller.cookie,
      body: { eventType: "sale.completed" },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(WEBHOOK_MESSAGES.eventNotChosen);
  });

  it("keeps each seller's endpoints and deliveries to that seller", async () => {
    const { endpoint } = await addEndpoint(seller.cookie, ["sale.completed"], "/mine");
    await t.request({
      method: "POST",
      url: `/api/webhook-endpoints/${endpoint.id}/examples`,
      cookie: seller.cookie,
      body: { eventType: "sale.completed" },
    });
    await eventually(async () =>
      expect(await deliveriesOf(endpoint.id)).toMatchObject([{ status: "succeeded", attempts: 1 }]),
    );
    const [delivery] = await deliveriesOf(endpoint.id);

    // On the plan, so every refusal below is about whose endpoint it is.
    const other = await subscribedSeller(t);
    const asOther = (method: "GET" | "POST" | "DELETE", url: string, body?: unknown) =>
      t.request({ method, url, cookie: other.cookie, ...(body ? { body } : {}) });
    expect((await asOther("GET", "/api/webhook-endpoints")).json()).toEqual({ endpoints: [] });
    for (const [method, url, body] of [
      ["GET", `/api/webhook-endpoints/${endpoint.id}/secret`],
      ["POST", `/api/webhook-endpoints/${endpoint.id}/rotate-secret`],
      ["GET", `/api/webhook-endpoints/${endpoint.id}/deliveries`],
      ["POST", `/api/webhook-endpoints/${endpoint.id}/examples`, { eventType: "sale.completed" }],
      ["POST", `/api/webhook-deliveries/${delivery!.id}/resend`],
      ["DELETE", `/api/webhook-endpoints/${endpoint.id}`],
    ] as const) {
      const response = await asOther(method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.body).not.toContain("whsec_");
    }
    for (const [method, url] of [
      ["GET", "/api/webhook-endpoints"],
      ["POST", "/api/webhook-endpoints"],
      ["GET", `/api/webhook-endpoints/${endpoint.id}/secret`],
      ["POST", `/api/webhook-deliveries/${delivery!.id}/resend`],
    ] as const) {
      expect((await t.request({ method, url, body: {} })).statusCode, `${method} ${url}`).toBe(401);
    }
    // Untouched: still there, still delivered once, still the seller's secret.
    expect(await deliveriesOf(endpoint.id)).toMatchObject([{ attempts: 1, status: "succeeded" }]);

    // The owner deletes it, with its deliveries.
    const deleted = await t.request({
      method: "DELETE",
      url: `/api/webhook-endpoints/${endpoint.id}`,
      cookie: seller.cookie,
    });
    expect(deleted.statusCode).toBe(204);
    expect(
      await t.db
        .selectFrom("webhook_deliveries")
        .selectAll()
        .where("endpoint_id", "=", endpoint.id)
        .execute(),
    ).toEqual([]);
  });

  it("keeps finished deliveries 30 days, and those still being retried until they finish", async () => {
    const { endpoint } = await addEndpoint(seller.cookie, ["sale.completed"], "/old");
    receiver.answerWith(500);
    const example = () =>
      t.request({
        method: "POST",
        url: `/api/webhook-endpoints/${endpoint.id}/examples`,
        cookie: seller.cookie,
        body: { eventType: "sale.completed" },
      });
    await example();
    await eventually(async () => expect((await deliveriesOf(endpoint.id))[0]?.attempts).toBe(1));
    await example();
    await eventually(async () =>
      expect((await deliveriesOf(endpoint.id)).map((delivery) => delivery.status).sort()).toEqual([
        "pending",
        "succeeded",
      ]),
    );
    await pruneWebhookDeliveries(t.db, new Date(Date.now() + DELIVERY_RETENTION_MS - 60_000));
    expect(await deliveriesOf(endpoint.id)).toHaveLength(2);
    await pruneWebhookDeliveries(t.db, new Date(Date.now() + DELIVERY_RETENTION_MS + 60_000));
    expect((await deliveriesOf(endpoint.id)).map((delivery) => delivery.status)).toEqual(["pending"]);
  });

  it("refuses http URLs in the production configuration", async () => {
    const production = await createTestApp({ sharing: t });
    try {
      const response = await production.request({
        method: "POST",
        url: "/api/webhook-endpoints",
        cookie: seller.cookie,
        body: { url: "http://hooks.example.com/flatfee", events: ["sale.completed"] },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(WEBHOOK_MESSAGES.httpsRequired);
      const https = await production.request({
        method: "POST",
        url: "/api/webhook-endpoints",
        cookie: seller.cookie,
        body: { url: "https://hooks.example.com/flatfee", events: ["sale.completed"] },
      });
      expect(https.statusCode, https.body).toBe(201);
      const local = await production.request({
        method: "POST",
        url: "/api/webhook-endpoints",
        cookie: seller.cookie,
        body: { url: `https://127.0.0.1:${receiver.port}/x`, events: ["sale.completed"] },
      });
      expect(local.json().message).toBe(WEBHOOK_MESSAGES.privateAddress);
    } finally {
      await production.close();
    }
  });
});
