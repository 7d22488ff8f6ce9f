import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createMembershipSession,
  eventually,
  lastEventId,
  loggedEventTypes,
  startTestEmulator,
  stripeError,
  type TestEmulator,
} from "./test-support.js";

const DAY = 86_400;

let emulator: TestEmulator;
let stripe: Stripe;

beforeAll(async () => {
  emulator = await startTestEmulator();
  stripe = emulator.stripe;
});
afterAll(() => emulator.close());

async function joinWithTrial(days: number) {
  const seller = await stripe.accounts.create({ type: "standard", business_profile: { name: "Tape Club" } });
  const scoped = { stripeAccount: seller.id };
  const { body: clock } = await emulator.control<{ now: number }>("/clock");
  const { session } = await createMembershipSession(stripe, seller.id, {
    subscription_data: { trial_period_days: days, metadata: { membership: "m_trial" } },
    expires_at: clock.now + 3600,
  });
  expect(session).toMatchObject({ amount_subtotal: 0, amount_total: 0 });
  expect(await (await fetch(session.url ?? "")).text()).toContain(`${days} days free`);
  const paid = await emulator.control(`/checkout/sessions/${session.id}/complete`, {});
  expect(paid.status).toBe(200);
  const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ["subscription"] }, scoped);
  return { seller, scoped, session: done, subscription: done.subscription as Stripe.Subscription };
}

describe("a membership with a free trial", () => {
  it("starts trialing with a paid $0 invoice and the card saved, with Stripe's events in order", async () => {
    const { seller, scoped, session, subscription } = await joinWithTrial(14);
    expect(session).toMatchObject({ status: "complete", payment_status: "no_payment_required" });
    expect(subscription.status).toBe("trialing");
    expect(subscription.trial_end).toBe((subscription.trial_start ?? 0) + 14 * DAY);
    const item = subscription.items.data[0];
    expect([item?.current_period_start, item?.current_period_end]).toEqual([
      subscription.trial_start,
      subscription.trial_end,
    ]);
    expect(subscription.billing_cycle_anchor).toBe(subscription.trial_end);
    expect(subscription.default_payment_method).toMatch(/^pm_/);
    expect(subscription.metadata).toEqual({ membership: "m_trial" });

    const invoice = await stripe.invoices.retrieve(String(subscription.latest_invoice), {}, scoped);
    expect(invoice).toMatchObject({
      billing_reason: "subscription_create",
      status: "paid",
      amount_due: 0,
      amount_paid: 0,
      total: 0,
    });
    expect(invoice.lines.data[0]).toMatchObject({
      amount: 0,
      description: "Trial period for Supporter membership",
      period: { start: subscription.trial_start, end: subscription.trial_end },
    });
    expect((await stripe.paymentIntents.list({}, scoped)).data).toEqual([]);

    const ids = new Set([session.id, subscription.id, String(subscription.customer)]);
    expect(await loggedEventTypes(emulator, seller.id, ids)).toEqual([
      "customer.created",
      "invoice.created",
      "invoice.finalized",
      "customer.subscription.created",
      "invoice.paid",
      "invoice.payment_succeeded",
      "checkout.session.completed",
    ]);
  });

  it("announces the trial's end three days ahead, then charges the first period", async () => {
    const { seller, scoped, subscription } = await joinWithTrial(7);
    const ids = new Set([subscription.id, String(subscription.customer)]);
    const trialEnd = subscription.trial_end ?? 0;
    const { body: clock } = await emulator.control<{ now: number }>("/clock");

    const before = await lastEventId(emulator);
    await emulator.control("/clock/advance", { seconds: trialEnd - 3 * DAY - clock.now - 60 });
    expect(await loggedEventTypes(emulator, seller.id, ids, before)).toEqual([]);
    await emulator.control("/clock/advance", { seconds: 120 });
    await emulator.control("/clock/advance", { seconds: DAY });
    expect(await loggedEventTypes(emulator, seller.id, ids, before)).toEqual([
      "customer.subscription.trial_will_end",
    ]);

    const atEnd = await lastEventId(emulator);
    await emulator.control("/clock/advance", { seconds: 2 * DAY });
    const active = await stripe.subscriptions.retrieve(subscription.id, {}, scoped);
    expect(active.status).toBe("active");
    expect(active.items.data[0]?.current_period_start).toBe(trialEnd);
    const invoice = await stripe.invoices.retrieve(String(active.latest_invoice), {}, scoped);
    expect(invoice).toMatchObject({ billing_reason: "subscription_cycle", status: "paid", amount_paid: 500 });
    expect(await loggedEventTypes(emulator, seller.id, ids, atEnd)).toEqual([
      "invoice.created",
      "invoice.finalized",
      "payment_intent.created",
      "charge.succeeded",
      "payment_intent.succeeded",
      "invoice.paid",
      "invoice.payment_succeeded",
      "customer.subscription.updated",
    ]);
    const updated = await eventually(async () =>
      emulator.connect
        .events("customer.subscription.updated")
        .find((event) => (event.data.object as Stripe.Subscription).id === subscription.id),
    );
    expect(updated.data.previous_attributes).toMatchObject({ status: "trialing" });
  });

  it("goes past_due when the first charge after the trial fails", async () => {
    const { scoped, subscription } = await joinWithTrial(3);
    const set = await emulator.control(`/subscriptions/${subscription.id}/next_renewal`, {
      outcome: "failed",
    });
    expect(set.status).toBe(200);
    await emulator.control("/clock/advance", { seconds: 3 * DAY + 10 });
    const pastDue = await stripe.subscriptions.retrieve(subscription.id, {}, scoped);
    expect(pastDue.status).toBe("past_due");
    const invoice = await stripe.invoices.retrieve(String(pastDue.latest_invoice), {}, scoped);
    expect(invoice).toMatchObject({ status: "open", billing_reason: "subscription_cycle", attempt_count: 1 });
    expect(invoice.next_payment_attempt).toBeGreaterThan(pastDue.items.data[0]?.current_period_start ?? 0);
  });

  it("moves trial_end, or ends the trial now with a charge, through subscriptions.update", async () => {
    const { scoped, subscription } = await joinWithTrial(10);
    const later = (subscription.trial_end ?? 0) + 5 * DAY;
    const moved = await stripe.subscriptions.update(subscription.id, { trial_end: later }, scoped);
    expect(moved).toMatchObject({ status: "trialing", trial_end: later });
    expect(moved.items.data[0]?.current_period_end).toBe(later);

    const before = await lastEventId(emulator);
    const ended = await stripe.subscriptions.update(subscription.id, { trial_end: "now" }, scoped);
    expect(ended.status).toBe("active");
    const ids = new Set([subscription.id, String(subscription.customer)]);
    const types = await loggedEventTypes(emulator, scoped.stripeAccount, ids, before);
    expect(types[0]).toBe("customer.subscription.trial_will_end");
    expect(types.at(-1)).toBe("customer.subscription.updated");
    const invoice = await stripe.invoices.retrieve(String(ended.latest_invoice), {}, scoped);
    expect(invoice).toMatchObject({ status: "paid", amount_paid: 500 });

    const unknown = await stripeError(
      stripe.subscriptions.update(
        subscription.id,
        { trial_period_days: 3 } as Stripe.SubscriptionUpdateParams,
        scoped,
      ),
    );
    expect([unknown.statusCode, unknown.code]).toEqual([400, "parameter_unknown"]);
  });

  it("refuses a trial shorter than Stripe allows", async () => {
    const seller = await stripe.accounts.create({ type: "standard" });
    const tooSoon = await stripeError(
      createMembershipSession(stripe, seller.id, {
        subscription_data: { trial_end: Math.floor(Date.now() / 1000) + 3600 },
      }),
    );
    expect(tooSoon.param).toBe("subscription_data[trial_end]");
  });
});
