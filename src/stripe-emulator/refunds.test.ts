import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPurchaseSession, startTestEmulator, stripeError, type TestEmulator } from "./test-support.js";

let emulator: TestEmulator;
let stripe: Stripe;
let seller: Stripe.Account;

beforeAll(async () => {
  emulator = await startTestEmulator();
  stripe = emulator.stripe;
  seller = await stripe.accounts.create({ type: "standard" });
});
afterAll(() => emulator.close());

async function paidIntent(): Promise<Stripe.PaymentIntent> {
  const session = await createPurchaseSession(stripe, seller.id);
  await emulator.control(`/checkout/sessions/${session.id}/complete`, {});
  const done = await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: seller.id });
  return stripe.paymentIntents.retrieve(String(done.payment_intent), {}, { stripeAccount: seller.id });
}

describe("refunds on a connected account", () => {
  it("refunds part by payment intent, then the rest by charge", async () => {
    const intent = await paidIntent();
    const partial = await stripe.refunds.create(
      { payment_intent: intent.id, amount: 500 },
      { stripeAccount: seller.id },
    );
    expect(partial.id).toMatch(/^re_/);
    expect(partial).toMatchObject({
      object: "refund",
      amount: 500,
      status: "succeeded",
      payment_intent: intent.id,
    });
    let charge = await stripe.charges.retrieve(
      String(intent.latest_charge),
      {},
      { stripeAccount: seller.id },
    );
    expect(charge).toMatchObject({ amount_refunded: 500, refunded: false });

    const rest = await stripe.refunds.create({ charge: charge.id }, { stripeAccount: seller.id });
    expect(rest.amount).toBe(1000);
    charge = await stripe.charges.retrieve(charge.id, { expand: ["refunds"] }, { stripeAccount: seller.id });
    expect(charge).toMatchObject({ amount_refunded: 1500, refunded: true });
    expect(charge.refunds?.data.map((refund) => refund.id).sort()).toEqual([partial.id, rest.id].sort());

    const again = await stripeError(
      stripe.refunds.create({ charge: charge.id }, { stripeAccount: seller.id }),
    );
    expect([again.statusCode, again.code]).toEqual([400, "charge_already_refunded"]);

    const created = await emulator.connect.waitFor("refund.created", 2);
    expect(created.every((event) => event.account === seller.id)).toBe(true);
    const refunded = await emulator.connect.waitFor("charge.refunded", 2);
    expect(refunded.at(-1)?.data.object).toMatchObject({ id: charge.id, refunded: true });
  });

  it("refuses more than what is left, and other accounts' payments", async () => {
    const intent = await paidIntent();
    const tooMuch = await stripeError(
      stripe.refunds.create({ payment_intent: intent.id, amount: 1501 }, { stripeAccount: seller.id }),
    );
    expect([tooMuch.statusCode, tooMuch.param]).toEqual([400, "amount"]);
    const elsewhere = await stripeError(stripe.refunds.create({ payment_intent: intent.id }));
    expect([elsewhere.statusCode, elsewhere.code, elsewhere.param]).toEqual([
      400,
      "resource_missing",
      "payment_intent",
    ]);
    const nothing = await stripeError(stripe.refunds.create({}, { stripeAccount: seller.id }));
    expect(nothing.code).toBe("parameter_missing");
  });
});
