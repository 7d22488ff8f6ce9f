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
let seller: Stripe.Account;

beforeAll(async () => {
  emulator = await startTestEmulator();
  stripe = emulator.stripe;
  seller = await stripe.accounts.create({ type: "standard", email: "seller@example.com" });
});
afterAll(() => emulator.close());

const complete = (id: string, card = "4242424242424242") =>
  emulator.control<
    Stripe.Checkout.Session & { error?: { message: string; code: string; decline_code: string } }
  >(`/checkout/sessions/${id}/complete`, { card });

describe("payment mode on a connected account", () => {
  it("creates an open session with the hosted page URL", async () => {
    const session = await createPurchaseSession(stripe, seller.id);
    expect(session.id).toMatch(/^cs_test_/);
    expect(session).toMatchObject({
      object: "checkout.session",
      mode: "payment",
      status: "open",
      payment_status: "unpaid",
      amount_total: 1500,
      currency: "usd",
      customer_email: "buyer@example.com",
      metadata: { order: "ord_1" },
      payment_intent: null,
      ui_mode: "hosted_page",
      livemode: false,
    });
    expect(session.url).toBe(`${emulator.running.url}/c/pay/${session.id}`);
    expect(session.success_url).toContain("{CHECKOUT_SESSION_ID}");
    expect(session.line_items).toBeUndefined();
  });

  it("lists line items and expands them on retrieve", async () => {
    const session = await createPurchaseSession(stripe, seller.id, {
      line_items: [
        {
          quantity: 2,
          price_data: { currency: "usd", unit_amount: 300, product_data: { name: "Sample pack" } },
        },
        { quantity: 1, price_data: { currency: "usd", unit_amount: 700, product_data: { name: "Stems" } } },
      ],
    });
    expect(session.amount_total).toBe(1300);
    const items = await stripe.checkout.sessions.listLineItems(session.id, {}, { stripeAccount: seller.id });
    expect(items.data.map((item) => [item.description, item.quantity, item.amount_total])).toEqual([
      ["Sample pack", 2, 600],
      ["Stems", 1, 700],
    ]);
    const expanded = await stripe.checkout.sessions.retrieve(
      session.id,
      { expand: ["line_items"] },
      { stripeAccount: seller.id },
    );
    expect(expanded.line_items?.data[0]?.price?.unit_amount).toBe(300);
  });

  it("pays with 4242: payment intent and charge on the connected account, completed event to Connect", async () => {
    const session = await createPurchaseSession(stripe, seller.id);
    const paid = await complete(session.id);
    expect(paid.status).toBe(200);

    const retrieved = await stripe.checkout.sessions.retrieve(
      session.id,
      { expand: ["payment_intent", "payment_intent.latest_charge"] },
      { stripeAccount: seller.id },
    );
    expect(retrieved).toMatchObject({
      status: "complete",
      payment_status: "paid",
      customer_details: { email: "buyer@example.com" },
      url: null,
    });
    const intent = retrieved.payment_intent as Stripe.PaymentIntent;
    expect(intent).toMatchObject({
      object: "payment_intent",
      status: "succeeded",
      amount: 1500,
      metadata: { order: "ord_1" },
    });
    const charge = intent.latest_charge as Stripe.Charge;
    expect(charge).toMatchObject({ object: "charge", paid: true, amount: 1500, payment_intent: intent.id });
    expect(charge.payment_method_details?.card?.last4).toBe("4242");

    const direct = await stripe.paymentIntents.retrieve(intent.id, {}, { stripeAccount: seller.id });
    expect(direct.id).toBe(intent.id);
    expect((await stripe.charges.retrieve(charge.id, {}, { stripeAccount: seller.id })).id).toBe(charge.id);
    expect((await stripeError(stripe.paymentIntents.retrieve(intent.id))).statusCode).toBe(404);

    const [event] = await emulator.connect.waitFor("checkout.session.completed");
    expect(event?.account).toBe(seller.id);
    expect(event?.data.object).toMatchObject({ id: expect.any(String), payment_status: "paid" });
    expect(emulator.platform.events("checkout.session.completed")).toHaveLength(0);
  });

  it("declines 4000 0000 0000 0002 and 9995 and leaves the session open", async () => {
    const session = await createPurchaseSession(stripe, seller.id);
    const declined = await complete(session.id, "4000000000000002");
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({
      message: "Your card was declined.",
      decline_code: "generic_decline",
    });
    const broke = await complete(session.id, "4000000000009995");
    expect(broke.body.error?.message).toBe("Your card has insufficient funds.");
    const retrieved = await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: seller.id });
    expect(retrieved.status).toBe("open");
  });

  it("expires on request, sends checkout.session.expired, and cannot be paid afterwards", async () => {
    const session = await createPurchaseSession(stripe, seller.id);
    const expired = await stripe.checkout.sessions.expire(session.id, {}, { stripeAccount: seller.id });
    expect(expired.status).toBe("expired");
    const events = await emulator.connect.waitFor("checkout.session.expired");
    expect(events.some((event) => event.account === seller.id)).toBe(true);
    const again = await stripeError(
      stripe.checkout.sessions.expire(session.id, {}, { stripeAccount: seller.id }),
    );
    expect(again.statusCode).toBe(400);
    expect((await complete(session.id)).status).toBe(400);
  });

  it("validates expires_at, exclusive customer parameters and recurring prices", async () => {
    const now = Math.floor(Date.now() / 1000);
    const tooSoon = await stripeError(createPurchaseSession(stripe, seller.id, { expires_at: now + 60 }));
    expect(tooSoon.param).toBe("expires_at");
    const ok = await createPurchaseSession(stripe, seller.id, { expires_at: now + 3600 });
    expect(ok.expires_at).toBe(now + 3600);

    const customer = await stripe.customers.create({ email: "c@example.com" }, { stripeAccount: seller.id });
    const both = await stripeError(createPurchaseSession(stripe, seller.id, { customer: customer.id }));
    expect(both.code).toBe("parameters_exclusive");

    const recurring = await stripeError(
      createPurchaseSession(stripe, seller.id, {
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: "usd",
              unit_amount: 100,
              recurring: { interval: "month" },
              product_data: { name: "x" },
            },
          },
        ],
      }),
    );
    expect(recurring.param).toBe("line_items[0][price]");
  });

  it("keeps the locale Checkout speaks and shows its page in it; English when none or auto", async () => {
    const german = await createPurchaseSession(stripe, seller.id, { locale: "de" });
    expect(german.locale).toBe("de");
    const retrieved = await stripe.checkout.sessions.retrieve(german.id, {}, { stripeAccount: seller.id });
    expect(retrieved.locale).toBe("de");
    const page = await (await fetch(german.url ?? "")).text();
    expect(page).toContain('<html lang="de">');
    expect(page).toMatch(/<button class="button" type="submit" id="pay"[^>]*>Bezahlen \$15\.00<\/button>/);
    expect(page).toContain("<h2>Mit Karte bezahlen</h2>");

    const brazilian = await createPurchaseSession(stripe, seller.id, { locale: "pt-BR" });
    expect(await (await fetch(brazilian.url ?? "")).text()).toContain('<html lang="pt-BR">');
    const { session: japanese } = await createPlanSession(stripe, { locale: "ja" });
    const japanesePage = await (await fetch(japanese.url ?? "")).text();
    expect(japanesePage).toContain('<html lang="ja">');
    expect(japanesePage).toMatch(/id="pay"[^>]*>申し込む<\/button>/);

    for (const locale of [undefined, "auto", "it"] as const) {
      const session = await createPurchaseSession(stripe, seller.id, locale ? { locale } : {});
      expect(session.locale).toBe(locale ?? null);
      const english = await (await fetch(session.url ?? "")).text();
      expect(english).toContain('<html lang="en">');
      expect(english).toMatch(/id="pay"[^>]*>Pay \$15\.00<\/button>/);
    }

    const unknown = await stripeError(createPurchaseSession(stripe, seller.id, { locale: "xx" as "de" }));
    expect(unknown).toMatchObject({ type: "StripeInvalidRequestError", param: "locale" });
    expect(unknown.message).toMatch(/^Invalid locale: must be one of auto, bg, /);
  });
});

describe("subscription mode on the platform", () => {
  it("pays: subscription with the period on its items, paid invoice, events to the platform endpoint", async () => {
    const { customer, price, session } = await createPlanSession(stripe);
    expect(session).toMatchObject({
      mode: "subscription",
      customer: customer.id,
      client_reference_id: "seller_1",
    });
    expect((await complete(session.id)).status).toBe(200);

    const retrieved = await stripe.checkout.sessions.retrieve(session.id, {
      expand: ["subscription", "invoice"],
    });
    expect(retrieved).toMatchObject({ status: "complete", payment_status: "paid", payment_intent: null });
    expect(retrieved.customer_details?.email).toBe("seller@example.com");
    const subscription = retrieved.subscription as Stripe.Subscription;
    expect(subscription).toMatchObject({
      object: "subscription",
      status: "active",
      customer: customer.id,
      cancel_at_period_end: false,
      metadata: { seller: "seller_1" },
    });
    const item = subscription.items.data[0];
    expect(item?.price.id).toBe(price.id);
    expect(item?.current_period_end).toBeGreaterThan(item?.current_period_start ?? Infinity);
    expect(new Date((item?.current_period_end ?? 0) * 1000).getUTCMonth()).toBe(
      (new Date((item?.current_period_start ?? 0) * 1000).getUTCMonth() + 1) % 12,
    );
    const invoice = retrieved.invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({
      status: "paid",
      amount_paid: 1000,
      billing_reason: "subscription_create",
    });
    expect(invoice.parent?.subscription_details?.subscription).toBe(subscription.id);

    const created = await emulator.platform.waitFor("customer.subscription.created");
    expect(created.some((event) => (event.data.object as Stripe.Subscription).id === subscription.id)).toBe(
      true,
    );
    await emulator.platform.waitFor("invoice.paid");
    const completed = await emulator.platform.waitFor("checkout.session.completed");
    expect(completed.every((event) => event.account === undefined)).toBe(true);
  });

  it("takes price_data with recurring and creates the customer when none was given", async () => {
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer_email: "new-seller@example.com",
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: "usd",
            unit_amount: 1000,
            recurring: { interval: "month" },
            product_data: { name: "Plan" },
          },
        },
      ],
      success_url: "http://127.0.0.1:9/ok",
    });
    await complete(session.id);
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ["customer"] });
    expect(done.customer).toMatchObject({ object: "customer", email: "new-seller@example.com" });
    const subscription = await stripe.subscriptions.retrieve(String(done.subscription));
    expect(subscription.items.data[0]?.price.recurring?.interval).toBe("month");
  });

  it("needs a recurring price", async () => {
    const error = await stripeError(
      stripe.checkout.sessions.create({
        mode: "subscription",
        line_items: [
          { quantity: 1, price_data: { currency: "usd", unit_amount: 1000, product_data: { name: "x" } } },
        ],
      }),
    );
    expect(error.statusCode).toBe(400);
  });
});
