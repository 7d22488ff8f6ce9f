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

let emulator: TestEmulator;
let stripe: Stripe;

beforeAll(async () => {
  emulator = await startTestEmulator();
  stripe = emulator.stripe;
});
afterAll(() => emulator.close());

/** A $10/month member of a seller who also sells a $20/month and a $100/year tier. */
async function member() {
  const account = await stripe.accounts.create({ type: "standard" });
  const scoped = { stripeAccount: account.id };
  const { session } = await createMembershipSession(stripe, account.id, {}, 1000);
  await emulator.control(`/checkout/sessions/${session.id}/complete`, {});
  const done = await stripe.checkout.sessions.retrieve(session.id, {}, scoped);
  const subscription = await stripe.subscriptions.retrieve(String(done.subscription), {}, scoped);
  const item = subscription.items.data[0];
  if (!item) throw new Error("no item");
  const product = String(item.price.product);
  const patron = await stripe.prices.create(
    { currency: "usd", unit_amount: 2000, recurring: { interval: "month" }, product },
    scoped,
  );
  const yearly = await stripe.prices.create(
    { currency: "usd", unit_amount: 10000, recurring: { interval: "year" }, product },
    scoped,
  );
  return { account, scoped, subscription, item, patron, yearly };
}

/** Stripe's proration: the unused fraction of the period, to the second. */
function prorated(amount: number, item: Stripe.SubscriptionItem, at: number) {
  const { current_period_start: start, current_period_end: end } = item;
  return Math.round((amount * (end - at)) / (end - start));
}

function prorationLines(invoice: Stripe.Invoice) {
  return invoice.lines.data
    .filter((line) => line.parent?.subscription_item_details?.proration)
    .map((line) => line.amount);
}

describe("changing the price of a membership", () => {
  it("create_prorations: pending invoice items, picked up by the next renewal", async () => {
    const { scoped, subscription, item, patron } = await member();
    const at = item.current_period_start + 1_000_003;
    const updated = await stripe.subscriptions.update(
      subscription.id,
      {
        items: [{ id: item.id, price: patron.id }],
        proration_behavior: "create_prorations",
        proration_date: at,
      },
      scoped,
    );
    expect(updated.items.data[0]?.price.id).toBe(patron.id);
    expect(updated.latest_invoice).toBe(subscription.latest_invoice);
    const credit = -prorated(1000, item, at);
    const charge = prorated(2000, item, at);
    const pending = await stripe.invoiceItems.list(
      { customer: String(subscription.customer), pending: true },
      scoped,
    );
    expect(pending.data.map((entry) => [entry.amount, entry.proration]).sort()).toEqual(
      [
        [credit, true],
        [charge, true],
      ].sort(),
    );
    const event = await eventually(async () =>
      emulator.connect
        .events("customer.subscription.updated")
        .find((candidate) => (candidate.data.object as Stripe.Subscription).id === subscription.id),
    );
    const previousItems = (event.data.previous_attributes as Partial<Stripe.Subscription>).items;
    expect(previousItems?.data[0]?.price.id).toBe(item.price.id);

    const renewed = await emulator.control<Stripe.Subscription>(`/subscriptions/${subscription.id}/renew`, {
      outcome: "paid",
    });
    const invoice = await stripe.invoices.retrieve(String(renewed.body.latest_invoice), {}, scoped);
    expect(invoice.billing_reason).toBe("subscription_cycle");
    expect(prorationLines(invoice).sort()).toEqual([credit, charge].sort());
    expect(invoice.total).toBe(2000 + credit + charge);
    const creditLine = invoice.lines.data.find((line) => line.amount === credit);
    expect(creditLine?.parent?.subscription_item_details).toMatchObject({
      proration: true,
      subscription_item: item.id,
      invoice_item: expect.stringMatching(/^ii_/),
      proration_details: {
        credited_items: { invoice: subscription.latest_invoice, invoice_line_items: [expect.any(String)] },
      },
    });
    expect(creditLine?.description).toMatch(/^Unused time on 1 × Supporter membership after /);
    expect((await stripe.invoiceItems.list({ pending: true }, scoped)).data).toEqual([]);
  });

  it("always_invoice: invoices and charges the difference now, with Stripe's events", async () => {
    const { account, scoped, subscription, item, patron } = await member();
    const before = await lastEventId(emulator);
    const at = item.current_period_start + 86_400 * 10;
    const updated = await stripe.subscriptions.update(
      subscription.id,
      {
        items: [{ id: item.id, price: patron.id }],
        proration_behavior: "always_invoice",
        proration_date: at,
      },
      scoped,
    );
    const invoice = await stripe.invoices.retrieve(
      String(updated.latest_invoice),
      { expand: ["payments"] },
      scoped,
    );
    const expected = prorated(2000, item, at) - prorated(1000, item, at);
    expect(invoice).toMatchObject({
      billing_reason: "subscription_update",
      status: "paid",
      total: expected,
      amount_paid: expected,
    });
    expect(prorationLines(invoice)).toHaveLength(2);
    expect(invoice.payments?.data[0]?.payment.payment_intent).toMatch(/^pi_/);
    const ids = new Set([subscription.id, String(subscription.customer)]);
    expect(await loggedEventTypes(emulator, account.id, ids, before)).toEqual([
      "invoiceitem.created",
      "invoiceitem.created",
      "invoice.created",
      "invoice.finalized",
      "payment_intent.created",
      "charge.succeeded",
      "payment_intent.succeeded",
      "invoice.paid",
      "invoice.payment_succeeded",
      "customer.subscription.updated",
    ]);
  });

  it("a downgrade's credit becomes customer balance, spent by the next invoice", async () => {
    const { scoped, subscription, item, patron } = await member();
    const firstAt = item.current_period_start + 60;
    await stripe.subscriptions.update(
      subscription.id,
      { items: [{ id: item.id, price: patron.id }], proration_behavior: "none", proration_date: firstAt },
      scoped,
    );
    const upgraded = await stripe.subscriptions.retrieve(subscription.id, {}, scoped);
    const patronItem = upgraded.items.data[0];
    if (!patronItem) throw new Error("no item");
    const at = item.current_period_start + 86_400 * 15;
    const downgraded = await stripe.subscriptions.update(
      subscription.id,
      {
        items: [{ id: item.id, price: item.price.id }],
        proration_behavior: "always_invoice",
        proration_date: at,
      },
      scoped,
    );
    const credit = prorated(1000, patronItem, at) - prorated(2000, patronItem, at);
    const invoice = await stripe.invoices.retrieve(String(downgraded.latest_invoice), {}, scoped);
    expect(invoice).toMatchObject({ total: credit, amount_due: 0, status: "paid", ending_balance: credit });
    const customer = (await stripe.customers.retrieve(
      String(subscription.customer),
      {},
      scoped,
    )) as Stripe.Customer;
    expect(customer.balance).toBe(credit);

    const renewed = await emulator.control<Stripe.Subscription>(`/subscriptions/${subscription.id}/renew`, {
      outcome: "paid",
    });
    const next = await stripe.invoices.retrieve(String(renewed.body.latest_invoice), {}, scoped);
    expect(next).toMatchObject({
      total: 1000,
      starting_balance: credit,
      amount_due: 1000 + credit,
      amount_paid: 1000 + credit,
      ending_balance: 0,
    });
  });

  it("month → year restarts the billing cycle now and invoices at once", async () => {
    const { scoped, subscription, item, yearly } = await member();
    const { body: clock } = await emulator.control<{ now: number }>("/clock");
    const updated = await stripe.subscriptions.update(
      subscription.id,
      { items: [{ id: item.id, price: yearly.id }], proration_behavior: "create_prorations" },
      scoped,
    );
    const now = updated.billing_cycle_anchor;
    expect(now).toBeGreaterThanOrEqual(clock.now);
    expect(updated.items.data[0]?.current_period_start).toBe(now);
    expect(updated.items.data[0]?.current_period_end).toBeGreaterThan(now + 364 * 86_400);
    const invoice = await stripe.invoices.retrieve(String(updated.latest_invoice), {}, scoped);
    expect(invoice.billing_reason).toBe("subscription_update");
    expect(invoice.status).toBe("paid");
    expect(prorationLines(invoice)).toEqual([-prorated(1000, item, now)]);
    expect(invoice.total).toBe(10000 - prorated(1000, item, now));
  });
});

describe("invoices.createPreview", () => {
  it("answers the invoice an update would make, storing and sending nothing", async () => {
    const { account, scoped, subscription, item, patron } = await member();
    const at = item.current_period_start + 86_400 * 7;
    const invoicesBefore = (await stripe.invoices.list({ subscription: subscription.id }, scoped)).data
      .length;
    const before = await lastEventId(emulator);
    const preview = await stripe.invoices.createPreview(
      {
        customer: String(subscription.customer),
        subscription: subscription.id,
        subscription_details: {
          items: [{ id: item.id, price: patron.id }],
          proration_behavior: "always_invoice",
          proration_date: at,
        },
      },
      scoped,
    );
    const expected = prorated(2000, item, at) - prorated(1000, item, at);
    expect(preview.id).toMatch(/^upcoming_in_/);
    expect(preview).toMatchObject({ amount_due: expected, total: expected, status: "draft" });
    expect(prorationLines(preview).sort()).toEqual(
      [-prorated(1000, item, at), prorated(2000, item, at)].sort(),
    );

    const upcoming = await stripe.invoices.createPreview(
      {
        subscription: subscription.id,
        subscription_details: {
          items: [{ id: item.id, price: patron.id }],
          proration_behavior: "create_prorations",
          proration_date: at,
        },
      },
      scoped,
    );
    expect(upcoming.total).toBe(2000 + expected);

    expect((await stripe.invoices.list({ subscription: subscription.id }, scoped)).data).toHaveLength(
      invoicesBefore,
    );
    expect(await loggedEventTypes(emulator, account.id, new Set([subscription.id]), before)).toEqual([]);
    expect((await stripe.subscriptions.retrieve(subscription.id, {}, scoped)).items.data[0]?.price.id).toBe(
      item.price.id,
    );

    const made = await stripe.subscriptions.update(
      subscription.id,
      {
        items: [{ id: item.id, price: patron.id }],
        proration_behavior: "always_invoice",
        proration_date: at,
      },
      scoped,
    );
    const invoice = await stripe.invoices.retrieve(String(made.latest_invoice), {}, scoped);
    expect(invoice.total).toBe(preview.total);
  });

  it("refuses a proration_date outside the period and an item of another subscription", async () => {
    const { scoped, subscription, item, patron } = await member();
    const outside = await stripeError(
      stripe.subscriptions.update(
        subscription.id,
        { items: [{ id: item.id, price: patron.id }], proration_date: item.current_period_end + 10 },
        scoped,
      ),
    );
    expect(outside.param).toBe("proration_date");
    const stranger = await stripeError(
      stripe.subscriptions.update(subscription.id, { items: [{ id: "si_other", price: patron.id }] }, scoped),
    );
    expect(stranger.param).toBe("items[0][id]");
  });
});

describe("changing the price during a trial", () => {
  it("prorates nothing and keeps the trial's end, even for a new interval", async () => {
    const account = await stripe.accounts.create({ type: "standard" });
    const scoped = { stripeAccount: account.id };
    const { session, price } = await createMembershipSession(stripe, account.id, {
      subscription_data: { trial_period_days: 14 },
    });
    await emulator.control(`/checkout/sessions/${session.id}/complete`, {});
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ["subscription"] }, scoped);
    const subscription = done.subscription as Stripe.Subscription;
    const yearly = await stripe.prices.create(
      { currency: "usd", unit_amount: 5000, recurring: { interval: "year" }, product: String(price.product) },
      scoped,
    );
    const updated = await stripe.subscriptions.update(
      subscription.id,
      {
        items: [{ id: subscription.items.data[0]?.id ?? "", price: yearly.id }],
        proration_behavior: "always_invoice",
      },
      scoped,
    );
    expect(updated).toMatchObject({ status: "trialing", latest_invoice: subscription.latest_invoice });
    expect(updated.items.data[0]?.current_period_end).toBe(subscription.trial_end);
    expect((await stripe.invoiceItems.list({ pending: true }, scoped)).data).toEqual([]);
  });
});
