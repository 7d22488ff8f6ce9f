import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventRecord } from "./state/types.js";
import {
  CONNECT_SECRET,
  createPurchaseSession,
  eventually,
  PLATFORM_SECRET,
  startTestEmulator,
  type TestEmulator,
} from "./test-support.js";
import { signatureHeader } from "./webhooks/sign.js";

let emulator: TestEmulator;
let stripe: Stripe;
let seller: Stripe.Account;

beforeAll(async () => {
  emulator = await startTestEmulator();
  stripe = emulator.stripe;
  seller = await stripe.accounts.create({ type: "standard", email: "hooks@example.com" });
});
afterAll(() => emulator.close());

async function expiredSessionEvent(): Promise<Stripe.Event> {
  const session = await createPurchaseSession(stripe, seller.id);
  await stripe.checkout.sessions.expire(session.id, {}, { stripeAccount: seller.id });
  const events = await emulator.connect.waitFor("checkout.session.expired", 1);
  const event = events.find(
    (candidate) => (candidate.data.object as Stripe.Checkout.Session).id === session.id,
  );
  if (event) return event;
  const all = await emulator.connect.waitFor("checkout.session.expired", events.length + 1);
  const found = all.find((candidate) => (candidate.data.object as Stripe.Checkout.Session).id === session.id);
  if (!found) throw new Error("event not delivered");
  return found;
}

describe("signed webhooks", () => {
  it("sends Stripe's envelope, verified by constructEvent with the endpoint's secret", async () => {
    const event = await expiredSessionEvent();
    expect(event).toMatchObject({
      object: "event",
      api_version: Stripe.API_VERSION,
      type: "checkout.session.expired",
      livemode: false,
      account: seller.id,
      pending_webhooks: 1,
    });
    expect(event.id).toMatch(/^evt_/);
    expect(event.request?.id).toMatch(/^req_/);
    expect(typeof event.created).toBe("number");
  });

  it("is rejected by the SDK with a wrong secret or an old timestamp", async () => {
    await expiredSessionEvent();
    const webhook = emulator.connect.received.at(-1);
    if (!webhook) throw new Error("no webhook");
    expect(() => stripe.webhooks.constructEvent(webhook.body, webhook.signature, PLATFORM_SECRET)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    const old = signatureHeader(webhook.body, CONNECT_SECRET, Math.floor(Date.now() / 1000) - 3600);
    expect(() => stripe.webhooks.constructEvent(webhook.body, old, CONNECT_SECRET)).toThrow(/tolerance/);
    const fresh = signatureHeader(webhook.body, CONNECT_SECRET, Math.floor(Date.now() / 1000));
    expect(stripe.webhooks.constructEvent(webhook.body, fresh, CONNECT_SECRET).id).toBe(webhook.event.id);
  });

  it("retries after a 500 and records every attempt", async () => {
    let failuresLeft = 2;
    emulator.connect.respondWith = () => (failuresLeft-- > 0 ? 500 : 200);
    try {
      const event = await expiredSessionEvent();
      const body = await eventually(async () => {
        const record = (await emulator.control<EventRecord>(`/events/${event.id}`)).body;
        return record.status === "pending" ? undefined : record;
      });
      expect(body.deliveries.map((attempt) => attempt.status)).toEqual([500, 500, 200]);
      expect(body.deliveries.map((attempt) => attempt.trigger)).toEqual(["initial", "retry", "retry"]);
      expect(body.status).toBe("succeeded");
      expect(emulator.connect.events().filter((received) => received.id === event.id)).toHaveLength(3);
    } finally {
      emulator.connect.respondWith = () => 200;
    }
  });

  it("redelivers, and delivers a batch out of order and twice", async () => {
    const first = await expiredSessionEvent();
    const second = await expiredSessionEvent();
    const before = emulator.connect.received.length;

    const redelivered = await emulator.control<{ status: number }>(`/events/${first.id}/redeliver`, {});
    expect(redelivered.body.status).toBe(200);

    const batch = await emulator.control<{ attempts: { event: string; status: number }[] }>(
      "/events/deliver",
      {
        event_ids: [second.id, first.id],
        times: 2,
      },
    );
    expect(batch.body.attempts.map((attempt) => attempt.event)).toEqual([
      second.id,
      second.id,
      first.id,
      first.id,
    ]);
    const delivered = emulator.connect.received.slice(before).map((webhook) => webhook.event.id);
    expect(delivered).toEqual([first.id, second.id, second.id, first.id, first.id]);
  });

  it("lists the event log with delivery attempts", async () => {
    const { body } = await emulator.control<{ data: EventRecord[] }>(
      `/events?type=checkout.session.expired&account=${seller.id}`,
    );
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.every((record) => record.endpoint === "connect" && record.deliveries.length > 0)).toBe(
      true,
    );
  });

  it("sends platform events without `account` to the platform endpoint only", async () => {
    const customer = await stripe.customers.create({ email: "p@example.com" });
    const price = await stripe.prices.create({
      currency: "usd",
      unit_amount: 1000,
      recurring: { interval: "month" },
      product_data: { name: "Plan" },
    });
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customer.id,
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: "http://127.0.0.1:9/ok",
    });
    await stripe.checkout.sessions.expire(session.id);
    const [event] = await emulator.platform.waitFor("checkout.session.expired");
    expect(event?.account).toBeUndefined();
  });
});
