import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BILLING_MESSAGES, type SellerStatus } from "../../src/contracts/seller";
import { control } from "./support/emulator-control";
import { createTestApp, signUp, type TestApp, WEBHOOK_SECRETS } from "./support/test-app";
import { eventually } from "./support/wait";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
});
afterAll(async () => {
  await t.close();
});

const DAY_MS = 24 * 60 * 60 * 1000;

const status = async (cookie: string) =>
  (await t.request({ method: "GET", url: "/api/seller/status", cookie })).json() as SellerStatus;

/** Seller clicks Subscribe, pays on the emulator's Checkout with 4242; returns the subscription id. */
async function subscribe(cookie: string): Promise<string> {
  const response = await t.request({ method: "POST", url: "/api/billing/checkout", cookie });
  expect(response.statusCode).toBe(200);
  const sessionId = new URL(response.json().url).pathname.split("/").pop()!;
  await control(t.emulator).payCheckout(sessionId, "4242424242424242");
  await eventually(async () => expect((await status(cookie)).standing).toBe("active"));
  const row = await t.db
    .selectFrom("subscriptions")
    .select("stripe_subscription_id")
    .where("stripe_subscription_id", "like", "sub_%")
    .orderBy("updated_at", "desc")
    .executeTakeFirstOrThrow();
  return row.stripe_subscription_id;
}

async function subscriptionIdOf(userId: string) {
  const row = await t.db
    .selectFrom("subscriptions")
    .selectAll()
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return row.stripe_subscription_id;
}

/** Posts a signed event straight to a webhook endpoint, as Stripe would. */
function postEvent(
  event: object,
  options: { secret?: string; timestamp?: number; body?: string; connect?: boolean } = {},
) {
  const payload = options.body ?? JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({
    payload: JSON.stringify(event),
    secret: options.secret ?? (options.connect ? WEBHOOK_SECRETS.connect : WEBHOOK_SECRETS.platform),
    ...(options.timestamp ? { timestamp: options.timestamp } : {}),
  });
  return t.app.server.inject({
    method: "POST",
    url: options.connect ? "/api/webhooks/stripe-connect" : "/api/webhooks/stripe",
    headers: { "content-type": "application/json", "stripe-signature": header },
    payload,
  });
}

describe("the $10/month plan", () => {
  it("starts with no subscription: dashboard locked, nothing to sell", async () => {
    const { cookie } = await signUp(t);
    expect(await status(cookie)).toMatchObject({
      subscription: null,
      standing: "none",
      canUseDashboard: false,
      canSell: false,
      hasBillingAccount: false,
      payouts: { accountCreated: false, onboardingComplete: false },
    });
  });

  it("checkout creates one customer, a $10/month subscription session, and paying it activates the plan", async () => {
    const { cookie, userId, email } = await signUp(t);
    const first = await t.request({ method: "POST", url: "/api/billing/checkout", cookie });
    const second = await t.request({ method: "POST", url: "/api/billing/checkout", cookie });
    const sessionId = new URL(first.json().url).pathname.split("/").pop()!;
    const session = await t.stripe.checkout.sessions.retrieve(sessionId, { expand: ["line_items"] });
    expect(session).toMatchObject({ mode: "subscription", client_reference_id: userId });
    expect(session.success_url).toBe("http://localhost:3000/dashboard?subscription=success");
    expect(session.line_items?.data[0]?.amount_total).toBe(1000);
    const secondSession = await t.stripe.checkout.sessions.retrieve(
      new URL(second.json().url).pathname.split("/").pop()!,
    );
    expect(secondSession.customer).toBe(session.customer);
    const customer = await t.stripe.customers.retrieve(session.customer as string);
    expect(customer).toMatchObject({ email });

    await control(t.emulator).payCheckout(sessionId, "4242424242424242");
    await eventually(async () => expect((await status(cookie)).standing).toBe("active"));
    const current = await status(cookie);
    expect(current.canUseDashboard).toBe(true);
    expect(current.hasBillingAccount).toBe(true);
    expect(new Date(current.subscription!.currentPeriodEnd!).getTime()).toBeGreaterThan(
      Date.now() + 25 * DAY_MS,
    );

    const again = await t.request({ method: "POST", url: "/api/billing/checkout", cookie });
    expect(again.statusCode).toBe(409);
  });

  it("a declined card leaves the seller without a plan", async () => {
    const { cookie } = await signUp(t);
    const response = await t.request({ method: "POST", url: "/api/billing/checkout", cookie });
    const sessionId = new URL(response.json().url).pathname.split("/").pop()!;
    await expect(control(t.emulator).payCheckout(sessionId, "4000000000000002")).rejects.toThrow();
    expect((await status(cookie)).standing).toBe("none");
  });

  it("a failed renewal starts the 3-day grace; after it purchases are disabled; paying again restores", async () => {
    const { cookie, userId } = await signUp(t);
    await subscribe(cookie);
    const subscriptionId = await subscriptionIdOf(userId);

    await control(t.emulator).renew(subscriptionId, "failed");
    await eventually(async () => expect((await status(cookie)).standing).toBe("grace"));
    const inGrace = await status(cookie);
    expect(inGrace).toMatchObject({ canUseDashboard: true, canSell: true });
    expect(inGrace.subscription?.status).toBe("past_due");

    t.clock.advance(3 * DAY_MS + 60_000);
    expect(await status(cookie)).toMatchObject({
      standing: "lapsed",
      canUseDashboard: false,
      canSell: false,
    });
    // Stripe keeps retrying this subscription, so a second one is refused: fix the card instead.
    const second = await t.request({ method: "POST", url: "/api/billing/checkout", cookie });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(BILLING_MESSAGES.fixCardInstead);

    await control(t.emulator).renew(subscriptionId, "paid");
    await eventually(async () => expect((await status(cookie)).standing).toBe("active"));
    expect((await status(cookie)).subscription?.pastDueSince).toBeNull();
    t.clock.advance(-(3 * DAY_MS + 60_000));
  });

  it("a final failed renewal cancels the plan; resubscribing reactivates it", async () => {
    const { cookie, userId } = await signUp(t);
    await subscribe(cookie);
    const first = await subscriptionIdOf(userId);
    await control(t.emulator).renew(first, "failed", true);
    await eventually(async () => expect((await status(cookie)).standing).toBe("canceled"));
    expect((await status(cookie)).canSell).toBe(false);

    await subscribe(cookie);
    expect(await subscriptionIdOf(userId)).not.toBe(first);
    expect(await status(cookie)).toMatchObject({ standing: "active", canSell: true });
  });

  it("billing portal opens for a seller with a billing account, refuses one without", async () => {
    const fresh = await signUp(t);
    const refused = await t.request({ method: "POST", url: "/api/billing/portal", cookie: fresh.cookie });
    expect(refused.statusCode).toBe(400);

    const { cookie } = await signUp(t);
    await subscribe(cookie);
    const portal = await t.request({ method: "POST", url: "/api/billing/portal", cookie });
    expect(portal.statusCode).toBe(200);
    expect(portal.json().url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  });
});

describe("Stripe webhooks", () => {
  it.each([
    ["a wrong secret", { secret: "whsec_wrong" }],
    ["an old timestamp", { timestamp: Math.floor(Date.now() / 1000) - 3600 }],
    [
      "a tampered body",
      { body: JSON.stringify({ id: "evt_tampered", type: "invoice.paid", data: { object: {} } }) },
    ],
  ])("rejects %s with 400 and changes nothing", async (_name, options) => {
    const event = {
      id: `evt_sig_${Math.random()}`,
      object: "event",
      type: "customer.subscription.updated",
      created: 1,
      data: { object: { id: "sub_x" } },
    };
    const response = await postEvent(event, options);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("invalid_signature");
    expect(
      await t.db.selectFrom("stripe_events").selectAll().where("id", "like", "evt_sig_%").execute(),
    ).toHaveLength(0);
  });

  it("applies the same event once, however often it is delivered", async () => {
    const { cookie, userId } = await signUp(t);
    await subscribe(cookie);
    const subscriptionId = await subscriptionIdOf(userId);
    const delivered = (await control(t.emulator).events()).filter(
      (event) =>
        event.type === "customer.subscription.created" &&
        (event.data.object as { id: string }).id === subscriptionId,
    );
    expect(delivered).toHaveLength(1);
    // The subscription's other events (invoice, checkout) may still be landing: count after them.
    await eventually(async () => expect(await control(t.emulator).pendingEvents()).toBe(0));
    const before = await t.db.selectFrom("stripe_events").select("id").execute();
    await control(t.emulator).redeliver(delivered[0]!.id);
    await control(t.emulator).redeliver(delivered[0]!.id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await t.db.selectFrom("stripe_events").select("id").execute();
    expect(after.length).toBe(before.length);
  });

  it("an old `created` arriving after `deleted` never revives a canceled subscription", async () => {
    const { cookie, userId } = await signUp(t);
    await subscribe(cookie);
    const subscriptionId = await subscriptionIdOf(userId);
    await t.stripe.subscriptions.cancel(subscriptionId);
    await eventually(async () => expect((await status(cookie)).standing).toBe("canceled"));
    const created = (await control(t.emulator).events()).find(
      (event) =>
        event.type === "customer.subscription.created" &&
        (event.data.object as { id: string }).id === subscriptionId,
    )!;
    // Same content, new id: as if Stripe delivered a stale copy late.
    const response = await postEvent({ ...created, id: `${created.id}_late` });
    expect(response.statusCode).toBe(200);
    expect((await status(cookie)).standing).toBe("canceled");
  });

  it("an `updated` delivered before `created` still ends in the right state", async () => {
    const { cookie, userId } = await signUp(t);
    await subscribe(cookie);
    const subscriptionId = await subscriptionIdOf(userId);
    await t.db.deleteFrom("subscriptions").where("user_id", "=", userId).execute();
    const events = (await control(t.emulator).events()).filter(
      (event) =>
        (event.data.object as { id: string }).id === subscriptionId &&
        event.type.startsWith("customer.subscription."),
    );
    const updated = {
      ...events.find((e) => e.type === "customer.subscription.created")!,
      type: "customer.subscription.updated",
      id: "evt_updated_first",
    };
    const createdLate = {
      ...events.find((e) => e.type === "customer.subscription.created")!,
      id: "evt_created_second",
    };
    expect((await postEvent(updated)).statusCode).toBe(200);
    expect((await postEvent(createdLate)).statusCode).toBe(200);
    expect((await status(cookie)).standing).toBe("active");
  });
});

describe("Stripe Connect onboarding", () => {
  it("needs a plan first", async () => {
    const { cookie } = await signUp(t);
    const response = await t.request({ method: "POST", url: "/api/payouts/onboarding", cookie });
    expect(response.statusCode).toBe(403);
  });

  it("creates one Standard account, and only Stripe's account.updated completes onboarding", async () => {
    const { cookie, userId } = await signUp(t);
    await subscribe(cookie);
    const first = await t.request({ method: "POST", url: "/api/payouts/onboarding", cookie });
    expect(first.statusCode).toBe(200);
    const second = await t.request({ method: "POST", url: "/api/payouts/onboarding", cookie });
    expect(second.statusCode).toBe(200);
    const profile = await t.db
      .selectFrom("profiles")
      .selectAll()
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    const account = await t.stripe.accounts.retrieve(profile.stripe_connect_account_id!);
    expect(account.type).toBe("standard");
    expect((await status(cookie)).payouts).toEqual({ accountCreated: true, onboardingComplete: false });

    await control(t.emulator).completeOnboarding(account.id);
    await eventually(async () => expect((await status(cookie)).payouts.onboardingComplete).toBe(true));
  });

  it("mints a fresh onboarding link when Stripe sends the seller to refresh_url", async () => {
    const { cookie } = await signUp(t);
    await subscribe(cookie);
    const response = await t.request({ method: "GET", url: "/api/payouts/onboarding/refresh", cookie });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  });
});

describe("isolation between sellers", () => {
  it("a seller's status, portal and onboarding only ever touch their own records", async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    await subscribe(a.cookie);
    await t.request({ method: "POST", url: "/api/payouts/onboarding", cookie: a.cookie });
    const bStatus = await status(b.cookie);
    expect(bStatus).toMatchObject({
      standing: "none",
      hasBillingAccount: false,
      payouts: { accountCreated: false },
    });
    expect(
      (await t.request({ method: "POST", url: "/api/billing/portal", cookie: b.cookie })).statusCode,
    ).toBe(400);
    expect(
      (await t.request({ method: "POST", url: "/api/payouts/onboarding", cookie: b.cookie })).statusCode,
    ).toBe(403);
    const aProfile = await t.db
      .selectFrom("profiles")
      .selectAll()
      .where("id", "=", a.userId)
      .executeTakeFirstOrThrow();
    const bProfile = await t.db
      .selectFrom("profiles")
      .selectAll()
      .where("id", "=", b.userId)
      .executeTakeFirstOrThrow();
    expect(bProfile.stripe_connect_account_id).toBeNull();
    expect(aProfile.stripe_connect_account_id).not.toBeNull();
  });

  it.each([
    ["GET", "/api/seller/status"],
    ["POST", "/api/billing/checkout"],
    ["POST", "/api/billing/portal"],
    ["POST", "/api/payouts/onboarding"],
    ["GET", "/api/events"],
  ] as const)("%s %s needs a signed-in seller", async (method, url) => {
    const response = await t.request({ method, url });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe("User not authenticated");
  });
});
