import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createMembershipSession,
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

async function seller() {
  const account = await stripe.accounts.create({ type: "standard" });
  return { account, scoped: { stripeAccount: account.id } };
}

/** Joins with the coupon and renews `renewals` times; answers the subscription's invoices, oldest first. */
async function invoicesWithCoupon(
  coupon: Stripe.Coupon,
  scoped: { stripeAccount: string },
  renewals: number,
  trialDays?: number,
) {
  const { session } = await createMembershipSession(stripe, scoped.stripeAccount, {
    discounts: [{ coupon: coupon.id }],
    ...(trialDays ? { subscription_data: { trial_period_days: trialDays } } : {}),
  });
  await emulator.control(`/checkout/sessions/${session.id}/complete`, {});
  const done = await stripe.checkout.sessions.retrieve(session.id, {}, scoped);
  const subscription = String(done.subscription);
  for (let index = 0; index < renewals; index++) {
    await emulator.control(`/subscriptions/${subscription}/renew`, { outcome: "paid" });
  }
  const invoices = await stripe.invoices.list({ subscription, limit: 20 }, scoped);
  return {
    session: done,
    subscription: await stripe.subscriptions.retrieve(subscription, {}, scoped),
    invoices: invoices.data.reverse(),
  };
}

describe("coupons", () => {
  it("are created, retrieved, listed and deleted on a connected account", async () => {
    const { scoped } = await seller();
    const percent = await stripe.coupons.create(
      { percent_off: 25.5, duration: "forever", name: "Friends", metadata: { kind: "friends" } },
      scoped,
    );
    expect(percent).toMatchObject({
      object: "coupon",
      percent_off: 25.5,
      amount_off: null,
      currency: null,
      duration: "forever",
      duration_in_months: null,
      name: "Friends",
      times_redeemed: 0,
      valid: true,
      max_redemptions: null,
      metadata: { kind: "friends" },
    });
    expect(percent.id).toMatch(/^[A-Z0-9]{8}$/);
    const amount = await stripe.coupons.create(
      { amount_off: 300, currency: "USD", duration: "repeating", duration_in_months: 3, max_redemptions: 5 },
      scoped,
    );
    expect(amount).toMatchObject({ amount_off: 300, currency: "usd", duration_in_months: 3 });
    expect((await stripe.coupons.retrieve(percent.id, {}, scoped)).id).toBe(percent.id);
    expect((await stripe.coupons.list({ limit: 10 }, scoped)).data.map((coupon) => coupon.id)).toEqual([
      amount.id,
      percent.id,
    ]);
    expect((await stripeError(stripe.coupons.retrieve(percent.id))).statusCode).toBe(404);
    expect(await stripe.coupons.del(percent.id, {}, scoped)).toMatchObject({ id: percent.id, deleted: true });
    expect((await stripeError(stripe.coupons.retrieve(percent.id, {}, scoped))).code).toBe(
      "resource_missing",
    );
  });

  it("refuses what Stripe refuses", async () => {
    const { scoped } = await seller();
    const noCurrency = await stripeError(
      stripe.coupons.create({ amount_off: 100, duration: "once" }, scoped),
    );
    expect(noCurrency.param).toBe("currency");
    const both = await stripeError(
      stripe.coupons.create({ amount_off: 100, currency: "usd", percent_off: 10 }, scoped),
    );
    expect(both.code).toBe("parameters_exclusive");
    const noMonths = await stripeError(
      stripe.coupons.create({ percent_off: 10, duration: "repeating" }, scoped),
    );
    expect(noMonths.param).toBe("duration_in_months");
    const tooMuch = await stripeError(stripe.coupons.create({ percent_off: 120 }, scoped));
    expect(tooMuch.param).toBe("percent_off");
  });
});

describe("a coupon on a payment Checkout", () => {
  it("lowers the amounts and the charge, and counts a redemption", async () => {
    const { account, scoped } = await seller();
    const coupon = await stripe.coupons.create({ percent_off: 20, duration: "once" }, scoped);
    const session = await createPurchaseSession(stripe, account.id, { discounts: [{ coupon: coupon.id }] });
    expect(session).toMatchObject({
      amount_subtotal: 1500,
      amount_total: 1200,
      total_details: { amount_discount: 300 },
      discounts: [{ coupon: coupon.id, promotion_code: null }],
    });
    const page = await (await fetch(session.url ?? "")).text();
    expect(page).toContain("−$3.00");
    expect(page).toContain("$12.00");
    const lines = await stripe.checkout.sessions.listLineItems(session.id, {}, scoped);
    expect(lines.data[0]).toMatchObject({ amount_subtotal: 1500, amount_discount: 300, amount_total: 1200 });
    await emulator.control(`/checkout/sessions/${session.id}/complete`, {});
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ["payment_intent"] }, scoped);
    expect((done.payment_intent as Stripe.PaymentIntent).amount).toBe(1200);
    expect((await stripe.coupons.retrieve(coupon.id, {}, scoped)).times_redeemed).toBe(1);
  });

  it("is exclusive with allow_promotion_codes, and stops at max_redemptions", async () => {
    const { account, scoped } = await seller();
    const coupon = await stripe.coupons.create(
      { amount_off: 500, currency: "usd", max_redemptions: 1 },
      scoped,
    );
    const exclusive = await stripeError(
      createPurchaseSession(stripe, account.id, {
        discounts: [{ coupon: coupon.id }],
        allow_promotion_codes: true,
      }),
    );
    expect(exclusive.code).toBe("parameters_exclusive");
    const session = await createPurchaseSession(stripe, account.id, { discounts: [{ coupon: coupon.id }] });
    await emulator.control(`/checkout/sessions/${session.id}/complete`, {});
    expect(await stripe.coupons.retrieve(coupon.id, {}, scoped)).toMatchObject({
      times_redeemed: 1,
      valid: false,
    });
    const usedUp = await stripeError(
      createPurchaseSession(stripe, account.id, { discounts: [{ coupon: coupon.id }] }),
    );
    expect(usedUp.param).toBe("discounts[0][coupon]");
  });
});

describe("a coupon on a membership", () => {
  it("becomes the subscription's discount and applies to each invoice as Stripe shapes it", async () => {
    const { scoped } = await seller();
    const coupon = await stripe.coupons.create(
      { amount_off: 100, currency: "usd", duration: "forever" },
      scoped,
    );
    const { session, subscription, invoices } = await invoicesWithCoupon(coupon, scoped, 2);
    expect(session).toMatchObject({ amount_total: 400, total_details: { amount_discount: 100 } });
    expect(subscription.discounts).toHaveLength(1);
    const discountId = String(subscription.discounts[0]);
    expect(discountId).toMatch(/^di_/);
    expect(invoices.map((invoice) => [invoice.subtotal, invoice.total, invoice.amount_paid])).toEqual([
      [500, 400, 400],
      [500, 400, 400],
      [500, 400, 400],
    ]);
    const [first] = invoices;
    expect(first?.discounts).toEqual([discountId]);
    expect(first?.total_discount_amounts).toEqual([{ amount: 100, discount: discountId }]);
    expect(first?.lines.data[0]?.discount_amounts).toEqual([{ amount: 100, discount: discountId }]);

    const expanded = await stripe.subscriptions.retrieve(
      subscription.id,
      { expand: ["discounts", "discounts.source.coupon"] },
      scoped,
    );
    const discount = expanded.discounts[0] as Stripe.Discount;
    expect(discount).toMatchObject({
      id: discountId,
      object: "discount",
      subscription: subscription.id,
      customer: subscription.customer,
      checkout_session: session.id,
      end: null,
      source: { type: "coupon", coupon: { id: coupon.id, times_redeemed: 1 } },
    });
  });

  it("once: only the first invoice that costs something (not the trial's $0 one)", async () => {
    const { scoped } = await seller();
    const coupon = await stripe.coupons.create({ percent_off: 50, duration: "once" }, scoped);
    const { session, subscription, invoices } = await invoicesWithCoupon(coupon, scoped, 2, 7);
    expect(session.amount_total).toBe(0);
    expect(invoices.map((invoice) => invoice.total)).toEqual([0, 250, 500]);
    expect(subscription.discounts).toEqual([]);
  });

  it("repeating: for duration_in_months months", async () => {
    const { scoped } = await seller();
    const coupon = await stripe.coupons.create(
      { percent_off: 10, duration: "repeating", duration_in_months: 2 },
      scoped,
    );
    const { subscription, invoices } = await invoicesWithCoupon(coupon, scoped, 0);
    expect(invoices.map((invoice) => invoice.total)).toEqual([450]);
    const discount = (await stripe.subscriptions.retrieve(subscription.id, { expand: ["discounts"] }, scoped))
      .discounts[0] as Stripe.Discount;
    expect(discount.end).toBeGreaterThan(discount.start + 58 * 86_400);
    // The clock renews monthly: months 2 and 3 start before the discount ends, month 4 after it.
    await emulator.control("/clock/advance", { seconds: 95 * 86_400 });
    const all = (await stripe.invoices.list({ subscription: subscription.id }, scoped)).data.reverse();
    expect(all.map((invoice) => invoice.total)).toEqual([450, 450, 500, 500]);
  });
});
