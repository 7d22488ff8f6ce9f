import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventRecord } from "./state/types.js";
import {
  createPlanSession,
  createPurchaseSession,
  startTestEmulator,
  stripeError,
  type TestEmulator,
} from "./test-support.js";

// Where the emulator used to answer differently from Stripe.

let emulator: TestEmulator;
let stripe: Stripe;
let seller: Stripe.Account;

beforeAll(async () => {
  emulator = await startTestEmulator();
  stripe = emulator.stripe;
  seller = await stripe.accounts.create({ type: "standard", email: "fidelity@example.com" });
});
afterAll(() => emulator.close());

const pay = (sessionId: string) => emulator.control(`/checkout/sessions/${sessionId}/complete`, {});

/** The event types the emulator logged for one object graph, oldest first (the order it sent them). */
async function loggedTypes(matches: (record: EventRecord) => boolean): Promise<string[]> {
  const { body } = await emulator.control<{ data: EventRecord[] }>("/events");
  return body.data.filter(matches).map((record) => record.event.type);
}

describe("a missing object named in a parameter", () => {
  it("answers 400 resource_missing with the parameter, while a missing object in the path stays 404", async () => {
    const price = await stripeError(
      stripe.checkout.sessions.create({
        mode: "payment",
        line_items: [{ price: "price_missing", quantity: 1 }],
        success_url: "http://127.0.0.1:9/ok",
      }),
    );
    expect([price.statusCode, price.code, price.param]).toEqual([
      400,
      "resource_missing",
      "line_items[0][price]",
    ]);
    expect(price.message).toBe("No such price: 'price_missing'");

    const customer = await stripeError(stripe.billingPortal.sessions.create({ customer: "cus_missing" }));
    expect([customer.statusCode, customer.code, customer.param]).toEqual([
      400,
      "resource_missing",
      "customer",
    ]);

    const intent = await stripeError(
      stripe.refunds.create({ payment_intent: "pi_missing" }, { stripeAccount: seller.id }),
    );
    expect([intent.statusCode, intent.code, intent.param]).toEqual([
      400,
      "resource_missing",
      "payment_intent",
    ]);

    const cursor = await stripeError(stripe.customers.list({ starting_after: "cus_missing" }));
    expect([cursor.statusCode, cursor.code, cursor.param]).toEqual([
      400,
      "resource_missing",
      "starting_after",
    ]);

    const inPath = await stripeError(stripe.customers.retrieve("cus_missing"));
    expect([inPath.statusCode, inPath.code, inPath.param]).toEqual([404, "resource_missing", "id"]);
  });
});

describe("a refused request", () => {
  it("creates nothing: no price or product made from an earlier line's price_data", async () => {
    const shop = await stripe.accounts.create({ type: "standard" });
    const scoped = { stripeAccount: shop.id };
    const priceData = { currency: "usd", unit_amount: 500, product_data: { name: "Zine" } };
    const unknownPrice = await stripeError(
      createPurchaseSession(stripe, shop.id, {
        line_items: [
          { quantity: 1, price_data: priceData },
          { quantity: 1, price: "price_missing" },
        ],
      }),
    );
    expect(unknownPrice.param).toBe("line_items[1][price]");
    const recurringInPayment = await stripeError(
      createPurchaseSession(stripe, shop.id, {
        line_items: [
          { quantity: 1, price_data: priceData },
          { quantity: 1, price_data: { ...priceData, recurring: { interval: "month" } } },
        ],
      }),
    );
    expect(recurringInPayment.param).toBe("line_items[1][price]");
    expect((await stripe.products.list({}, scoped)).data).toEqual([]);
    expect((await stripe.prices.list({}, scoped)).data).toEqual([]);
  });
});

describe("idempotency keys", () => {
  it("are not used up by a request that failed validation", async () => {
    const refused = await stripeError(
      stripe.customers.create({ email: "a@example.com", colour: "red" } as Stripe.CustomerCreateParams, {
        idempotencyKey: "validation-then-valid",
      }),
    );
    expect(refused.code).toBe("parameter_unknown");
    const created = await stripe.customers.create(
      { email: "a@example.com" },
      { idempotencyKey: "validation-then-valid" },
    );
    expect(created.id).toMatch(/^cus_/);
    expect(created.lastResponse.headers["idempotent-replayed"]).toBeUndefined();
    const replayed = await stripe.customers.create(
      { email: "a@example.com" },
      { idempotencyKey: "validation-then-valid" },
    );
    expect([replayed.id, replayed.lastResponse.headers["idempotent-replayed"]]).toEqual([created.id, "true"]);
  });
});

describe("cancel_at", () => {
  async function subscription(): Promise<string> {
    const { session } = await createPlanSession(stripe);
    await pay(session.id);
    return String((await stripe.checkout.sessions.retrieve(session.id)).subscription);
  }

  it("stays null on an immediate cancel and on cancellation for failed payment", async () => {
    const canceledNow = await stripe.subscriptions.cancel(await subscription());
    expect(canceledNow).toMatchObject({ status: "canceled", cancel_at: null });
    expect(canceledNow.canceled_at).not.toBeNull();

    const unpaid = await subscription();
    await emulator.control(`/subscriptions/${unpaid}/renew`, { outcome: "failed", final: true });
    const ended = await stripe.subscriptions.retrieve(unpaid);
    expect(ended).toMatchObject({
      status: "canceled",
      cancel_at: null,
      cancellation_details: { reason: "payment_failed" },
    });
  });
});

describe("a succeeded charge", () => {
  it("has a balance transaction and a receipt page", async () => {
    const session = await createPurchaseSession(stripe, seller.id);
    await pay(session.id);
    const done = await stripe.checkout.sessions.retrieve(
      session.id,
      { expand: ["payment_intent.latest_charge.balance_transaction"] },
      { stripeAccount: seller.id },
    );
    const charge = (done.payment_intent as Stripe.PaymentIntent).latest_charge as Stripe.Charge;
    const transaction = charge.balance_transaction as Stripe.BalanceTransaction;
    expect(transaction).toMatchObject({
      object: "balance_transaction",
      amount: 1500,
      currency: "usd",
      type: "charge",
      source: charge.id,
      status: "pending",
    });
    expect(transaction.fee).toBeGreaterThan(0);
    expect(transaction.net).toBe(transaction.amount - transaction.fee);
    const retrieved = await stripe.balanceTransactions.retrieve(
      transaction.id,
      {},
      { stripeAccount: seller.id },
    );
    expect(retrieved.id).toBe(transaction.id);

    expect(charge.receipt_url).toMatch(new RegExp(`^${emulator.running.url}/receipts/`));
    const receipt = await fetch(charge.receipt_url ?? "");
    expect(receipt.status).toBe(200);
    const page = await receipt.text();
    expect(page).toContain("$15.00");
    expect(page).toContain("4242");
  });
});

describe("events and the platform account", () => {
  it("GET /v1/events/:id answers an event of the caller's own account", async () => {
    const session = await createPurchaseSession(stripe, seller.id);
    await stripe.checkout.sessions.expire(session.id, {}, { stripeAccount: seller.id });
    const { body } = await emulator.control<{ data: EventRecord[] }>("/events?type=checkout.session.expired");
    const logged = body.data.at(-1)?.event;
    if (!logged) throw new Error("no event logged");
    const event = await stripe.events.retrieve(logged.id, {}, { stripeAccount: seller.id });
    expect(event).toMatchObject({ id: logged.id, type: "checkout.session.expired", account: seller.id });
    expect((await stripeError(stripe.events.retrieve(logged.id))).statusCode).toBe(404);

    const customer = await stripe.customers.create({ email: "evented@example.com" });
    const created = await stripe.events.list({ type: "customer.created", limit: 1 });
    expect(created.data[0]?.data.object).toMatchObject({ object: "customer", id: customer.id });
  });

  it("GET /v1/account answers the platform's own account", async () => {
    const platform = await stripe.accounts.retrieveCurrent();
    expect(platform).toMatchObject({ object: "account", charges_enabled: true, details_submitted: true });
    expect(platform.id).toMatch(/^acct_/);
    expect((await stripe.accounts.retrieveCurrent()).id).toBe(platform.id);
    const own = await stripe.accounts.retrieveCurrent({}, { stripeAccount: seller.id });
    expect(own.id).toBe(seller.id);
  });
});

describe("the events of a payment, in Stripe's order", () => {
  it("a subscription Checkout", async () => {
    const price = await stripe.prices.create({
      currency: "usd",
      unit_amount: 1000,
      recurring: { interval: "month" },
      product_data: { name: "Plan" },
    });
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer_email: "ordered@example.com",
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: "http://127.0.0.1:9/ok",
    });
    await pay(session.id);
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ["invoice"] });
    const invoice = done.invoice as Stripe.Invoice;
    const ids = new Set([session.id, String(done.customer), String(done.subscription), invoice.id]);
    const payments = await stripe.paymentIntents.list({ customer: String(done.customer) });
    const intent = payments.data[0];
    if (!intent) throw new Error("no payment intent for the invoice");
    ids.add(intent.id).add(String(intent.latest_charge));
    expect(intent).toMatchObject({ amount: 1000, status: "succeeded", customer: done.customer });

    const types = await loggedTypes((record) => {
      const object = record.event.data.object as { id: string };
      return record.event.account === undefined && ids.has(object.id);
    });
    expect(types).toEqual([
      "customer.created",
      "invoice.created",
      "invoice.finalized",
      "customer.subscription.created",
      "payment_intent.created",
      "charge.succeeded",
      "payment_intent.succeeded",
      "invoice.paid",
      "invoice.payment_succeeded",
      "checkout.session.completed",
    ]);
    const created = (
      await emulator.control<{ data: EventRecord[] }>("/events?type=invoice.created")
    ).body.data
      .map((record) => record.event.data.object as Stripe.Invoice)
      .find((object) => object.id === invoice.id);
    expect(created).toMatchObject({ status: "draft", number: null });
    expect(invoice).toMatchObject({ status: "paid", number: expect.stringMatching(/-0001$/) });
  });

  it("a Connect purchase", async () => {
    const session = await createPurchaseSession(stripe, seller.id);
    await pay(session.id);
    const done = await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: seller.id });
    const intent = await stripe.paymentIntents.retrieve(
      String(done.payment_intent),
      {},
      { stripeAccount: seller.id },
    );
    const ids = new Set([session.id, intent.id, String(intent.latest_charge)]);
    const types = await loggedTypes(
      (record) =>
        record.event.account === seller.id && ids.has((record.event.data.object as { id: string }).id),
    );
    expect(types).toEqual([
      "payment_intent.created",
      "charge.succeeded",
      "payment_intent.succeeded",
      "checkout.session.completed",
    ]);
  });
});
