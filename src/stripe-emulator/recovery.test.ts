import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createMembershipSession,
  lastEventId,
  loggedEventTypes,
  startTestEmulator,
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

const form = (fields: Record<string, string>) => ({
  method: "POST",
  redirect: "manual" as const,
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});

async function member() {
  const account = await stripe.accounts.create({
    type: "standard",
    business_profile: { name: "Riso Press" },
  });
  const scoped = { stripeAccount: account.id };
  const { session } = await createMembershipSession(stripe, account.id);
  await emulator.control(`/checkout/sessions/${session.id}/complete`, {});
  const done = await stripe.checkout.sessions.retrieve(session.id, {}, scoped);
  const subscription = await stripe.subscriptions.retrieve(String(done.subscription), {}, scoped);
  const ids = new Set([subscription.id, String(subscription.customer)]);
  return { account, scoped, subscription, ids };
}

/** Sets the next automatic charge to fail and moves the clock past the period end. */
async function failNextRenewal(subscription: Stripe.Subscription) {
  await emulator.control(`/subscriptions/${subscription.id}/next_renewal`, { outcome: "failed" });
  const { body: clock } = await emulator.control<{ now: number }>("/clock");
  const end = subscription.items.data[0]?.current_period_end ?? 0;
  await emulator.control("/clock/advance", { seconds: Math.max(0, end - clock.now) + 5 });
}

describe("a renewal that fails", () => {
  it("leaves the invoice open, the subscription past_due, and is retried on next_payment_attempt", async () => {
    const { account, scoped, subscription, ids } = await member();
    const before = await lastEventId(emulator);
    await failNextRenewal(subscription);
    const pastDue = await stripe.subscriptions.retrieve(subscription.id, {}, scoped);
    expect(pastDue.status).toBe("past_due");
    const invoice = await stripe.invoices.retrieve(String(pastDue.latest_invoice), {}, scoped);
    expect(invoice).toMatchObject({ status: "open", attempt_count: 1, attempted: true });
    expect(invoice.hosted_invoice_url).toBe(`${emulator.running.url}/invoice/${invoice.id}`);
    expect(await loggedEventTypes(emulator, account.id, ids, before)).toEqual([
      "invoice.created",
      "invoice.finalized",
      "invoice.payment_failed",
      "customer.subscription.updated",
    ]);

    const retried = await lastEventId(emulator);
    const { body: clock } = await emulator.control<{ now: number }>("/clock");
    await emulator.control("/clock/advance", {
      seconds: (invoice.next_payment_attempt ?? 0) - clock.now + 1,
    });
    expect((await stripe.subscriptions.retrieve(subscription.id, {}, scoped)).status).toBe("active");
    expect(await stripe.invoices.retrieve(invoice.id, {}, scoped)).toMatchObject({
      status: "paid",
      attempt_count: 2,
    });
    expect(await loggedEventTypes(emulator, account.id, ids, retried)).toEqual([
      "payment_intent.created",
      "charge.succeeded",
      "payment_intent.succeeded",
      "invoice.paid",
      "invoice.payment_succeeded",
      "customer.subscription.updated",
    ]);
  });

  it("ends the subscription when the last retry fails", async () => {
    const { scoped, subscription } = await member();
    await failNextRenewal(subscription);
    for (let retry = 0; retry < 3; retry++) {
      await emulator.control(`/subscriptions/${subscription.id}/next_renewal`, { outcome: "failed" });
      await emulator.control("/clock/advance", { seconds: 3 * DAY + 1 });
    }
    const ended = await stripe.subscriptions.retrieve(subscription.id, {}, scoped);
    expect(ended).toMatchObject({ status: "canceled", cancellation_details: { reason: "payment_failed" } });
    const invoice = await stripe.invoices.retrieve(String(ended.latest_invoice), {}, scoped);
    expect(invoice).toMatchObject({ status: "open", attempt_count: 4, next_payment_attempt: null });
  });
});

describe("the hosted invoice page", () => {
  it("shows what is owed and recovers a past-due membership with a new card", async () => {
    const { account, scoped, subscription, ids } = await member();
    await failNextRenewal(subscription);
    const pastDue = await stripe.subscriptions.retrieve(subscription.id, {}, scoped);
    const invoice = await stripe.invoices.retrieve(String(pastDue.latest_invoice), {}, scoped);
    const url = invoice.hosted_invoice_url ?? "";
    const page = await (await fetch(url)).text();
    expect(page).toContain("Riso Press");
    expect(page).toContain("$5.00");
    expect(page).toContain('data-testid="status">Due<');
    expect(page).toContain('name="card_number"');

    const declined = await fetch(
      url,
      form({ card_number: "4000000000000002", card_expiry: "12 / 34", card_cvc: "123" }),
    );
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain("Your card was declined.");
    expect((await stripe.invoices.retrieve(invoice.id, {}, scoped)).status).toBe("open");

    const before = await lastEventId(emulator);
    const paid = await fetch(
      url,
      form({ card_number: "5555555555554444", card_expiry: "12 / 34", card_cvc: "123" }),
    );
    expect(paid.status).toBe(303);
    expect(await stripe.invoices.retrieve(invoice.id, {}, scoped)).toMatchObject({ status: "paid" });
    const active = await stripe.subscriptions.retrieve(subscription.id, {}, scoped);
    expect(active.status).toBe("active");
    expect(active.default_payment_method).not.toBe(subscription.default_payment_method);
    const customer = (await stripe.customers.retrieve(
      String(subscription.customer),
      {},
      scoped,
    )) as Stripe.Customer;
    expect(customer.invoice_settings.default_payment_method).toBe(active.default_payment_method);
    expect(await loggedEventTypes(emulator, account.id, ids, before)).toEqual([
      "payment_intent.created",
      "charge.succeeded",
      "payment_intent.succeeded",
      "invoice.paid",
      "invoice.payment_succeeded",
      "customer.updated",
      "customer.subscription.updated",
    ]);
    const after = await (await fetch(url)).text();
    expect(after).toContain('data-testid="status">Paid<');
    expect(after).not.toContain('name="card_number"');
  });
});

describe("the billing portal on a connected account", () => {
  it("cancels at period end and resumes, and a new card pays the open invoice of a past-due membership", async () => {
    const { scoped, subscription } = await member();
    const portal = await stripe.billingPortal.sessions.create(
      { customer: String(subscription.customer), return_url: "http://127.0.0.1:9/account" },
      scoped,
    );
    const act = (action: string, fields: Record<string, string> = {}) =>
      fetch(`${portal.url}/subscriptions/${subscription.id}/${action}`, form(fields));
    expect((await act("cancel-at-period-end")).status).toBe(303);
    expect((await stripe.subscriptions.retrieve(subscription.id, {}, scoped)).cancel_at_period_end).toBe(
      true,
    );
    await act("resume");
    expect((await stripe.subscriptions.retrieve(subscription.id, {}, scoped)).cancel_at_period_end).toBe(
      false,
    );

    await failNextRenewal(subscription);
    const pastDue = await stripe.subscriptions.retrieve(subscription.id, {}, scoped);
    expect(pastDue.status).toBe("past_due");
    await act("update-card", { card_number: "4242424242424242", card_expiry: "12 / 34", card_cvc: "123" });
    const recovered = await stripe.subscriptions.retrieve(subscription.id, {}, scoped);
    expect(recovered.status).toBe("active");
    expect((await stripe.invoices.retrieve(String(pastDue.latest_invoice), {}, scoped)).status).toBe("paid");
  });

  it("takes flow_data and sends the customer to its after_completion redirect", async () => {
    const { scoped, subscription } = await member();
    const portal = await stripe.billingPortal.sessions.create(
      {
        customer: String(subscription.customer),
        return_url: "http://127.0.0.1:9/account",
        flow_data: {
          type: "subscription_cancel",
          subscription_cancel: { subscription: subscription.id },
          after_completion: { type: "redirect", redirect: { return_url: "http://127.0.0.1:9/bye" } },
        },
      },
      scoped,
    );
    expect(portal.flow).toMatchObject({
      type: "subscription_cancel",
      subscription_cancel: { subscription: subscription.id },
      after_completion: { type: "redirect", redirect: { return_url: "http://127.0.0.1:9/bye" } },
    });
    const done = await fetch(`${portal.url}/subscriptions/${subscription.id}/cancel-at-period-end`, form({}));
    expect(done.headers.get("location")).toBe("http://127.0.0.1:9/bye");
  });
});

describe("refunding the last payment of a membership", () => {
  it("finds the payment intent on the invoice's payments and refunds it on the seller's account", async () => {
    const { account, scoped, subscription } = await member();
    await emulator.control(`/subscriptions/${subscription.id}/renew`, { outcome: "paid" });
    const [last] = (
      await stripe.invoices.list({ subscription: subscription.id, status: "paid", limit: 1 }, scoped)
    ).data;
    if (!last) throw new Error("no paid invoice");
    const invoice = await stripe.invoices.retrieve(last.id, { expand: ["payments"] }, scoped);
    const payment = invoice.payments?.data[0];
    expect(payment).toMatchObject({
      object: "invoice_payment",
      invoice: invoice.id,
      is_default: true,
      status: "paid",
      amount_paid: 500,
      payment: { type: "payment_intent" },
    });
    const paymentIntent = String(payment?.payment.payment_intent);
    const listed = await stripe.invoicePayments.list({ invoice: invoice.id }, scoped);
    expect(listed.data.map((entry) => entry.id)).toEqual([payment?.id]);

    const refund = await stripe.refunds.create({ payment_intent: paymentIntent }, scoped);
    expect(refund).toMatchObject({ amount: 500, payment_intent: paymentIntent, status: "succeeded" });
    const refunded = await emulator.connect.waitFor("charge.refunded");
    expect(refunded.some((event) => event.account === account.id)).toBe(true);
    const created = await emulator.connect.waitFor("refund.created");
    expect(created.some((event) => (event.data.object as Stripe.Refund).id === refund.id)).toBe(true);
  });
});

describe("the reconciliation job's lists", () => {
  it("subscriptions.list status all with pagination; invoices.list by subscription, status and created", async () => {
    const { scoped, subscription } = await member();
    const { session } = await createMembershipSession(stripe, scoped.stripeAccount);
    await emulator.control(`/checkout/sessions/${session.id}/complete`, {});
    const second = String((await stripe.checkout.sessions.retrieve(session.id, {}, scoped)).subscription);
    await stripe.subscriptions.cancel(second, {}, scoped);

    expect((await stripe.subscriptions.list({}, scoped)).data.map((entry) => entry.id)).toEqual([
      subscription.id,
    ]);
    const first = await stripe.subscriptions.list({ status: "all", limit: 1 }, scoped);
    expect(first).toMatchObject({ has_more: true, data: [{ id: second }] });
    const next = await stripe.subscriptions.list({ status: "all", limit: 1, starting_after: second }, scoped);
    expect(next).toMatchObject({ has_more: false, data: [{ id: subscription.id }] });

    // A minute later than everything made so far, so `created[gte]` leaves it out.
    const { body: clock } = await emulator.control<{ now: number }>("/clock/advance", { seconds: 60 });
    await emulator.control(`/subscriptions/${subscription.id}/renew`, { outcome: "paid" });
    await emulator.control(`/subscriptions/${subscription.id}/renew`, { outcome: "failed" });
    const paidSince = await stripe.invoices.list(
      { subscription: subscription.id, status: "paid", created: { gte: clock.now } },
      scoped,
    );
    expect(paidSince.data.map((invoice) => invoice.billing_reason)).toEqual(["subscription_cycle"]);
    const paidAll = await stripe.invoices.list({ subscription: subscription.id, status: "paid" }, scoped);
    expect(paidAll.data).toHaveLength(2);
    const open = await stripe.invoices.list({ subscription: subscription.id, status: "open" }, scoped);
    expect(open.data).toHaveLength(1);
  });
});
