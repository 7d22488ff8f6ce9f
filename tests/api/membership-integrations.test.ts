import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minimalPdf } from "../../src/server/features/uploads/test-fixtures";
import { control } from "./support/emulator-control";
import { readySeller, upload } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";
import { startWebhookReceiver, verifyStandardWebhook } from "./support/webhook-receiver";

// The seller's own tools: memberships in the REST API (docs/api.md) and the membership.* webhooks
// (docs/webhooks.md).

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let other: Awaited<ReturnType<typeof readySeller>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let product: { id: string; tiers: { id: string }[] };
beforeAll(async () => {
  t = await createTestApp({
    listen: true,
    webhookPolicy: { requireHttps: false, allowPrivateHosts: ["127.0.0.1"] },
  });
  seller = await readySeller(t);
  other = await readySeller(t);
  receiver = await startWebhookReceiver();
  const files = [{ uploadId: await upload(t, seller.cookie, "product-file", "a.pdf", minimalPdf(601)) }];
  const created = await t.request({
    method: "POST",
    url: "/api/products",
    cookie: seller.cookie,
    body: { kind: "membership", title: "Hooked", files, tiers: [{ name: "Fan", monthlyPrice: "5" }] },
  });
  expect(created.statusCode, created.body).toBe(201);
  product = created.json();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const membershipOf = (email: string) =>
  t.db.selectFrom("memberships").selectAll().where("customer_email", "=", email).executeTakeFirst();

async function member(email: string) {
  const response = await t.request({
    method: "POST",
    url: "/api/checkout/subscribe",
    body: { productId: product.id, tierId: product.tiers[0]!.id },
  });
  expect(response.statusCode, response.body).toBe(200);
  await control(t.emulator).payCheckout(sessionIdOf(response.json().url), "4242424242424242", email);
  await eventually(async () => expect((await membershipOf(email))?.status).toBe("active"));
  return (await membershipOf(email))!;
}

async function apiKey(cookie: string) {
  const response = await t.request({ method: "POST", url: "/api/api-keys", cookie, body: { name: "tool" } });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { secret: string }).secret;
}
const v1 = (key: string, method: "GET" | "POST", url: string, body?: object) =>
  t.app.server.inject({
    method,
    url,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });

describe("memberships in the seller API", () => {
  it("lists, reads and cancels the key's seller's memberships only", async () => {
    const key = await apiKey(seller.cookie);
    const otherKey = await apiKey(other.cookie);
    const ann = await member("ann@integrations.test");

    const listed = await v1(key, "GET", "/api/v1/memberships?q=ann@integrations");
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().members).toHaveLength(1);
    expect(listed.json().members[0]).toMatchObject({ id: ann.id, tierName: "Fan", status: "active" });
    const read = await v1(key, "GET", `/api/v1/memberships/${ann.id}`);
    expect(read.json()).toMatchObject({ email: "ann@integrations.test", amountCents: 500 });
    expect((await v1(otherKey, "GET", `/api/v1/memberships/${ann.id}`)).statusCode).toBe(404);
    expect((await v1(otherKey, "GET", "/api/v1/memberships")).json().members).toEqual([]);

    const refused = await v1(otherKey, "POST", `/api/v1/memberships/${ann.id}/cancel`, { when: "now" });
    expect(refused.statusCode).toBe(404);
    const canceled = await v1(key, "POST", `/api/v1/memberships/${ann.id}/cancel`, { when: "period_end" });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json()).toMatchObject({ status: "canceling", hasAccess: true });
  });
});

describe("membership webhooks", () => {
  it("tells the seller's endpoint when a membership starts, renews, fails to renew, is canceled and ends", async () => {
    const added = await t.request({
      method: "POST",
      url: "/api/webhook-endpoints",
      cookie: seller.cookie,
      body: {
        url: `${receiver.url}/hooks`,
        events: [
          "membership.started",
          "membership.renewed",
          "membership.payment_failed",
          "membership.canceled",
          "membership.ended",
        ],
      },
    });
    expect(added.statusCode, added.body).toBe(201);
    const { secret } = added.json() as { secret: string };
    const bea = await member("bea@integrations.test");
    const sub = bea.stripe_subscription_id;
    await control(t.emulator).renew(sub, "paid");
    await eventually(async () => {
      const orders = await t.db
        .selectFrom("orders")
        .select("id")
        .where("membership_id", "=", bea.id)
        .execute();
      expect(orders).toHaveLength(2);
    });
    await control(t.emulator).renew(sub, "failed");
    await eventually(async () => expect((await membershipOf(bea.customer_email))?.status).toBe("past_due"));
    await t.stripe.subscriptions.update(
      sub,
      { cancel_at_period_end: true },
      { stripeAccount: seller.account },
    );
    await eventually(async () =>
      expect((await membershipOf(bea.customer_email))?.cancel_at_period_end).toBe(true),
    );
    await t.stripe.subscriptions.cancel(sub, {}, { stripeAccount: seller.account });
    await eventually(async () => expect((await membershipOf(bea.customer_email))?.status).toBe("canceled"));

    const types = () =>
      receiver.received
        .map((webhook) => JSON.parse(webhook.body) as { type: string; data: { email: string } })
        .filter((event) => event.data.email === "bea@integrations.test")
        .map((event) => event.type);
    await eventually(
      async () =>
        expect(types()).toEqual([
          "membership.started",
          "membership.renewed",
          "membership.payment_failed",
          "membership.canceled",
          "membership.ended",
        ]),
      10_000,
    );
    for (const webhook of receiver.received) expect(verifyStandardWebhook(secret, webhook)).toBe(true);
    const started = receiver.received
      .map((webhook) => JSON.parse(webhook.body))
      .find((event) => event.type === "membership.started");
    expect(started.data).toMatchObject({
      membership_id: bea.id,
      product_id: product.id,
      tier_name: "Fan",
      interval: "month",
      amount: 500,
      currency: "usd",
      status: "active",
    });
  });
});
