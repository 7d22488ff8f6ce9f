import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPlanSession,
  createPurchaseSession,
  startTestEmulator,
  stripeError,
  type TestEmulator,
} from "./test-support.js";

let emulator: TestEmulator;
let stripe: Stripe;

beforeAll(async () => {
  emulator = await startTestEmulator();
  stripe = emulator.stripe;
});
afterAll(() => emulator.close());

async function subscribe(): Promise<{ subscription: Stripe.Subscription; customer: Stripe.Customer }> {
  const { session, customer } = await createPlanSession(stripe);
  await emulator.control(`/checkout/sessions/${session.id}/complete`, { card: "4242424242424242" });
  const done = await stripe.checkout.sessions.retrieve(session.id);
  return { subscription: await stripe.subscriptions.retrieve(String(done.subscription)), customer };
}

function eventsFor(type: string, subscriptionId: string) {
  return async (count = 1) => {
    for (let waited = 0; waited < 100; waited++) {
      const matching = emulator.platform.events(type).filter((event) => {
        const object = event.data.object as { id: string; parent?: Stripe.Invoice.Parent | null };
        return (
          object.id === subscriptionId || object.parent?.subscription_details?.subscription === subscriptionId
        );
      });
      if (matching.length >= count) return matching;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no ${type} for ${subscriptionId}`);
  };
}

describe("subscriptions API", () => {
  it("sets and clears cancel_at_period_end with customer.subscription.updated", async () => {
    const { subscription } = await subscribe();
    const periodEnd = subscription.items.data[0]?.current_period_end;
    const canceling = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(canceling).toMatchObject({ cancel_at_period_end: true, cancel_at: periodEnd, status: "active" });
    const [updated] = await eventsFor("customer.subscription.updated", subscription.id)();
    expect(updated?.data.object).toMatchObject({ cancel_at_period_end: true });
    expect(updated?.data.previous_attributes).toMatchObject({ cancel_at_period_end: false });

    const resumed = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false });
    expect(resumed).toMatchObject({ cancel_at_period_end: false, cancel_at: null });
  });

  it("cancels now with customer.subscription.deleted", async () => {
    const { subscription } = await subscribe();
    const canceled = await stripe.subscriptions.cancel(subscription.id);
    expect(canceled.status).toBe("canceled");
    expect(canceled.ended_at).not.toBeNull();
    await eventsFor("customer.subscription.deleted", subscription.id)();
    expect((await stripeError(stripe.subscriptions.cancel(subscription.id))).statusCode).toBe(400);
    expect((await stripeError(stripe.subscriptions.retrieve("sub_missing"))).code).toBe("resource_missing");
  });
});

describe("renewals through the control API", () => {
  it("paid: next period, invoice.paid and customer.subscription.updated", async () => {
    const { subscription } = await subscribe();
    const before = subscription.items.data[0];
    const renewed = await emulator.control<Stripe.Subscription>(`/subscriptions/${subscription.id}/renew`, {
      outcome: "paid",
    });
    const item = renewed.body.items.data[0];
    expect(renewed.body.status).toBe("active");
    expect(item?.current_period_start).toBe(before?.current_period_end);
    expect(item?.current_period_end).toBeGreaterThan(before?.current_period_end ?? Infinity);
    const paid = await eventsFor("invoice.paid", subscription.id)(2);
    const cycle = paid
      .map((event) => event.data.object as Stripe.Invoice)
      .find((invoice) => invoice.billing_reason === "subscription_cycle");
    expect(cycle).toMatchObject({ status: "paid", amount_paid: 1000 });
    expect(cycle?.lines.data[0]?.period.end).toBe(item?.current_period_end);
    await eventsFor("customer.subscription.updated", subscription.id)();
  });

  it("failed → past_due with invoice.payment_failed; a final failure cancels it", async () => {
    const { subscription } = await subscribe();
    const failed = await emulator.control<Stripe.Subscription>(`/subscriptions/${subscription.id}/renew`, {
      outcome: "failed",
    });
    expect(failed.body.status).toBe("past_due");
    const [paymentFailed] = await eventsFor("invoice.payment_failed", subscription.id)();
    expect(paymentFailed?.data.object).toMatchObject({ status: "open", attempted: true });
    const [updated] = await eventsFor("customer.subscription.updated", subscription.id)();
    expect(updated?.data.previous_attributes).toMatchObject({ status: "active" });

    const final = await emulator.control<Stripe.Subscription>(`/subscriptions/${subscription.id}/renew`, {
      outcome: "failed",
      final: true,
    });
    expect(final.body.status).toBe("canceled");
    expect(final.body.cancellation_details?.reason).toBe("payment_failed");
    await eventsFor("customer.subscription.deleted", subscription.id)();
    await eventsFor("invoice.payment_failed", subscription.id)(2);
  });

  it("a past-due subscription recovers when the retry is paid", async () => {
    const { subscription } = await subscribe();
    await emulator.control(`/subscriptions/${subscription.id}/renew`, { outcome: "failed" });
    const recovered = await emulator.control<Stripe.Subscription>(`/subscriptions/${subscription.id}/renew`, {
      outcome: "paid",
    });
    expect(recovered.body.status).toBe("active");
    const invoice = await stripe.invoices.retrieve(String(recovered.body.latest_invoice));
    expect(invoice).toMatchObject({ status: "paid", attempt_count: 2 });
  });
});

describe("the clock", () => {
  it("advancing past expires_at expires open sessions with checkout.session.expired", async () => {
    const seller = await stripe.accounts.create({ type: "standard" });
    const session = await createPurchaseSession(stripe, seller.id, {
      expires_at: Math.floor(Date.now() / 1000) + 1800,
    });
    const advanced = await emulator.control<{ now: number }>("/clock/advance", { seconds: 1801 });
    expect(advanced.body.now).toBeGreaterThanOrEqual(session.expires_at);
    const retrieved = await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: seller.id });
    expect(retrieved.status).toBe("expired");
    const expired = await emulator.connect.waitFor("checkout.session.expired");
    expect(expired.some((event) => (event.data.object as Stripe.Checkout.Session).id === session.id)).toBe(
      true,
    );
  });

  it("advancing past the period end renews, or ends a subscription set to cancel", async () => {
    const renewing = (await subscribe()).subscription;
    const ending = (await subscribe()).subscription;
    await stripe.subscriptions.update(ending.id, { cancel_at_period_end: true });
    await emulator.control("/clock/advance", { seconds: 32 * 86_400 });
    const renewed = await stripe.subscriptions.retrieve(renewing.id);
    expect(renewed.status).toBe("active");
    expect(renewed.items.data[0]?.current_period_start).toBe(renewing.items.data[0]?.current_period_end);
    const ended = await stripe.subscriptions.retrieve(ending.id);
    expect(ended.status).toBe("canceled");
    await eventsFor("customer.subscription.deleted", ending.id)();
  });
});

describe("billing portal", () => {
  it("creates a portal session for a customer", async () => {
    const { customer } = await subscribe();
    const session = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: "http://127.0.0.1:9/settings",
    });
    expect(session.id).toMatch(/^bps_/);
    expect(session).toMatchObject({
      object: "billing_portal.session",
      customer: customer.id,
      livemode: false,
    });
    expect(session.url).toBe(`${emulator.running.url}/p/session/${session.id}`);
    const missing = await stripeError(stripe.billingPortal.sessions.create({ customer: "cus_missing" }));
    expect([missing.statusCode, missing.param]).toEqual([400, "customer"]);
  });

  it("cancels at period end, resumes, updates the card and cancels now from the hosted page", async () => {
    const { customer, subscription } = await subscribe();
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: "http://x/back",
    });
    const page = await (await fetch(portal.url)).text();
    expect(page).toContain("Test mode — local Stripe emulator");
    expect(page).toContain("Flatfee plan");
    expect(page).toContain("Return to x");
    const act = (action: string, body = "") =>
      fetch(`${portal.url}/subscriptions/${subscription.id}/${action}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
      });

    expect((await act("cancel-at-period-end")).status).toBe(303);
    expect((await stripe.subscriptions.retrieve(subscription.id)).cancel_at_period_end).toBe(true);
    await act("resume");
    expect((await stripe.subscriptions.retrieve(subscription.id)).cancel_at_period_end).toBe(false);

    const declined = await act(
      "update-card",
      "card_number=4000000000000002&card_expiry=12%2F34&card_cvc=123",
    );
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain("Your card was declined.");
    await act("update-card", "card_number=5555555555554444&card_expiry=12%2F34&card_cvc=123");
    const withCard = await stripe.subscriptions.retrieve(subscription.id);
    expect(withCard.default_payment_method).not.toBe(subscription.default_payment_method);

    await act("cancel-now");
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe("canceled");
    const updates = await eventsFor("customer.subscription.updated", subscription.id)(3);
    expect(updates.map((event) => event.data.previous_attributes)).toEqual([
      expect.objectContaining({ cancel_at_period_end: false }),
      expect.objectContaining({ cancel_at_period_end: true }),
      expect.objectContaining({ default_payment_method: subscription.default_payment_method }),
    ]);
    await eventsFor("customer.subscription.deleted", subscription.id)();
  });
});
