import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPlanSession,
  createPurchaseSession,
  lastEventId,
  loggedEventTypes,
  startTestEmulator,
  stripeError,
  type TestEmulator,
} from "./test-support.js";

const DAY = 86_400;

let emulator: TestEmulator;
let stripe: Stripe;
let seller: Stripe.Account;
let scoped: { stripeAccount: string };

beforeAll(async () => {
  emulator = await startTestEmulator();
  stripe = emulator.stripe;
  seller = await stripe.accounts.create({ type: "standard" });
  scoped = { stripeAccount: seller.id };
});
afterAll(() => emulator.close());

/** A $15.00 purchase paid through Checkout on the seller's account: its charge. */
async function paidCharge(): Promise<Stripe.Charge> {
  const session = await createPurchaseSession(stripe, seller.id);
  await emulator.control(`/checkout/sessions/${session.id}/complete`, {});
  const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ["payment_intent"] }, scoped);
  const intent = done.payment_intent as Stripe.PaymentIntent;
  return stripe.charges.retrieve(String(intent.latest_charge), {}, scoped);
}

async function openDispute(chargeId: string, body: object = {}) {
  return emulator.control<Stripe.Dispute & { error?: { message: string } }>(
    `/charges/${chargeId}/dispute`,
    body,
  );
}

async function disputed(chargeId: string, body: object = {}): Promise<Stripe.Dispute> {
  const { status, body: dispute } = await openDispute(chargeId, body);
  expect(status).toBe(200);
  return dispute;
}

describe("opening a dispute (the cardholder's bank)", () => {
  it("withdraws the amount and the $15.00 fee, marks the charge disputed, and sends created then funds_withdrawn", async () => {
    const charge = await paidCharge();
    const before = await lastEventId(emulator);
    const { body: clock } = await emulator.control<{ now: number }>("/clock");
    const dispute = await disputed(charge.id);

    expect(dispute.id).toMatch(/^dp_/);
    expect(dispute).toMatchObject({
      object: "dispute",
      amount: 1500,
      currency: "usd",
      charge: charge.id,
      payment_intent: charge.payment_intent,
      reason: "fraudulent",
      status: "needs_response",
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      evidence_details: { has_evidence: false, past_due: false, submission_count: 0 },
      payment_method_details: { type: "card", card: { brand: "visa", case_type: "chargeback" } },
    });
    expect(dispute.evidence_details.due_by).toBeGreaterThanOrEqual(clock.now + 7 * DAY);
    expect(dispute.evidence_details.due_by).toBeLessThanOrEqual(clock.now + 7 * DAY + 5);
    expect(dispute.balance_transactions).toHaveLength(1);
    const [withdrawal] = dispute.balance_transactions;
    expect(withdrawal).toMatchObject({
      object: "balance_transaction",
      type: "adjustment",
      reporting_category: "dispute",
      amount: -1500,
      fee: 1500,
      net: -3000,
      currency: "usd",
      source: dispute.id,
      description: `Chargeback withdrawal for ${charge.id}`,
      fee_details: [
        { amount: 1500, application: null, currency: "usd", description: "Dispute fee", type: "stripe_fee" },
      ],
    });
    const stored = await stripe.balanceTransactions.retrieve(withdrawal?.id ?? "", {}, scoped);
    expect(stored).toEqual(withdrawal);

    expect(await stripe.charges.retrieve(charge.id, {}, scoped)).toMatchObject({
      disputed: true,
      refunded: false,
    });
    expect(await loggedEventTypes(emulator, seller.id, new Set([dispute.id]), before)).toEqual([
      "charge.dispute.created",
      "charge.dispute.funds_withdrawn",
    ]);
    const [created] = await emulator.connect.waitFor("charge.dispute.created");
    expect(created?.account).toBe(seller.id);
    expect(created?.request).toEqual({ id: null, idempotency_key: null });
    expect(created?.data.object).toMatchObject({ id: dispute.id, status: "needs_response" });
    await emulator.connect.waitFor("charge.dispute.funds_withdrawn");

    // Fully disputed: no second dispute, and the payment can no longer be refunded.
    const again = await openDispute(charge.id);
    expect(again.status).toBe(400);
    expect(again.body.error?.message).toContain("already fully disputed");
    const refund = await stripeError(stripe.refunds.create({ charge: charge.id }, scoped));
    expect([refund.statusCode, refund.code]).toEqual([400, "charge_disputed"]);
  });

  it("takes a reason and part of the amount, up to what is left of the charge", async () => {
    const charge = await paidCharge();
    const first = await disputed(charge.id, { reason: "product_not_received", amount: 500 });
    expect(first).toMatchObject({ reason: "product_not_received", amount: 500 });
    expect(first.balance_transactions[0]).toMatchObject({ amount: -500, fee: 1500, net: -2000 });

    const tooMuch = await openDispute(charge.id, { amount: 1001 });
    expect(tooMuch.status).toBe(400);
    const rest = await disputed(charge.id, { reason: "general" });
    expect(rest.amount).toBe(1000);
    expect((await openDispute(charge.id)).status).toBe(400);

    expect((await openDispute(charge.id, { reason: "not_a_reason" })).status).toBe(400);
    expect((await openDispute("ch_missing")).status).toBe(404);
  });

  it("cannot dispute a fully refunded charge; a partly refunded one only for what was kept", async () => {
    const refunded = await paidCharge();
    await stripe.refunds.create({ charge: refunded.id }, scoped);
    expect((await openDispute(refunded.id)).status).toBe(400);

    const partly = await paidCharge();
    await stripe.refunds.create({ charge: partly.id, amount: 1000 }, scoped);
    expect((await disputed(partly.id)).amount).toBe(500);
  });
});

describe("answering a dispute through the API", () => {
  it("stages evidence, submits it (under_review), and a won dispute gets its money back", async () => {
    const charge = await paidCharge();
    const dispute = await disputed(charge.id);
    const before = await lastEventId(emulator);

    const staged = await stripe.disputes.update(
      dispute.id,
      { evidence: { product_description: "Field recordings, downloaded twice" }, submit: false },
      scoped,
    );
    expect(staged).toMatchObject({
      status: "needs_response",
      evidence: { product_description: "Field recordings, downloaded twice", uncategorized_text: null },
      evidence_details: { has_evidence: true, submission_count: 0, submission_method: "not_submitted" },
    });

    const submitted = await stripe.disputes.update(
      dispute.id,
      {
        evidence: { customer_email_address: "buyer@example.com", access_activity_log: "2 downloads" },
        metadata: { order: "ord_1" },
      },
      scoped,
    );
    expect(submitted).toMatchObject({
      status: "under_review",
      metadata: { order: "ord_1" },
      evidence: {
        product_description: "Field recordings, downloaded twice",
        customer_email_address: "buyer@example.com",
      },
      evidence_details: {
        has_evidence: true,
        submission_count: 1,
        submission_method: "manual",
        past_due: false,
      },
    });
    const updates = await emulator.connect.waitFor("charge.dispute.updated", 2);
    const last = updates.at(-1) as Stripe.ChargeDisputeUpdatedEvent;
    expect(last.data.object.status).toBe("under_review");
    expect(last.data.previous_attributes).toMatchObject({ status: "needs_response", metadata: {} });

    // Once submitted, the evidence stays as sent; metadata can still change.
    const resubmit = await stripeError(
      stripe.disputes.update(dispute.id, { evidence: { uncategorized_text: "more" } }, scoped),
    );
    expect(resubmit.statusCode).toBe(400);
    await stripe.disputes.update(dispute.id, { metadata: { note: "sent" } }, scoped);

    const { status, body: won } = await emulator.control<Stripe.Dispute>(`/disputes/${dispute.id}/resolve`, {
      outcome: "won",
    });
    expect(status).toBe(200);
    expect(won.status).toBe("won");
    expect(won.balance_transactions).toHaveLength(2);
    expect(won.balance_transactions[1]).toMatchObject({
      type: "adjustment",
      reporting_category: "dispute_reversal",
      amount: 1500,
      fee: 0,
      fee_details: [],
      net: 1500,
      source: dispute.id,
      description: `Chargeback reversal for ${charge.id}`,
    });
    expect(await loggedEventTypes(emulator, seller.id, new Set([dispute.id]), before)).toEqual([
      "charge.dispute.updated",
      "charge.dispute.updated",
      "charge.dispute.updated",
      "charge.dispute.funds_reinstated",
      "charge.dispute.closed",
    ]);
    const [closed] = await emulator.connect.waitFor("charge.dispute.closed");
    expect(closed?.data.object).toMatchObject({ id: dispute.id, status: "won" });

    const late = await stripeError(stripe.disputes.update(dispute.id, { metadata: { late: "yes" } }, scoped));
    expect([late.statusCode, late.type]).toEqual([400, "StripeInvalidRequestError"]);
    expect(late.message).toContain("closed");
    expect((await stripeError(stripe.disputes.close(dispute.id, {}, scoped))).statusCode).toBe(400);
    expect((await emulator.control(`/disputes/${dispute.id}/resolve`, { outcome: "lost" })).status).toBe(400);
  });

  it("close accepts the loss: lost, charge.dispute.closed, no money back, no more updates", async () => {
    const charge = await paidCharge();
    const dispute = await disputed(charge.id);
    const before = await lastEventId(emulator);
    const lost = await stripe.disputes.close(dispute.id, {}, scoped);
    expect(lost).toMatchObject({ id: dispute.id, status: "lost" });
    expect(lost.balance_transactions).toHaveLength(1);
    expect(await loggedEventTypes(emulator, seller.id, new Set([dispute.id]), before)).toEqual([
      "charge.dispute.closed",
    ]);
    const update = await stripeError(
      stripe.disputes.update(dispute.id, { evidence: { uncategorized_text: "too late" } }, scoped),
    );
    expect(update.statusCode).toBe(400);
    const refund = await stripeError(stripe.refunds.create({ charge: charge.id }, scoped));
    expect(refund.code).toBe("charge_disputed");
  });

  it("a submitted dispute can be lost at the bank; a submitted one cannot be closed", async () => {
    const charge = await paidCharge();
    const dispute = await disputed(charge.id);
    await stripe.disputes.update(
      dispute.id,
      { evidence: { uncategorized_text: "It was delivered." } },
      scoped,
    );
    expect((await stripeError(stripe.disputes.close(dispute.id, {}, scoped))).statusCode).toBe(400);
    const before = await lastEventId(emulator);
    const { body: lost } = await emulator.control<Stripe.Dispute>(`/disputes/${dispute.id}/resolve`, {
      outcome: "lost",
    });
    expect(lost).toMatchObject({ status: "lost" });
    expect(lost.balance_transactions).toHaveLength(1);
    expect(await loggedEventTypes(emulator, seller.id, new Set([dispute.id]), before)).toEqual([
      "charge.dispute.closed",
    ]);
    expect((await emulator.control("/disputes/dp_missing/resolve", { outcome: "won" })).status).toBe(404);
  });
});

describe("reading disputes", () => {
  it("retrieves and lists them on their own account, filtered and paged, with charge and payment_intent expandable", async () => {
    const first = await paidCharge();
    const second = await paidCharge();
    const a = await disputed(first.id, { amount: 300 });
    const b = await disputed(first.id, { amount: 200 });
    const c = await disputed(second.id);

    const byCharge = await stripe.disputes.list({ charge: first.id }, scoped);
    expect(byCharge.data.map((dispute) => dispute.id)).toEqual([b.id, a.id]);
    const byIntent = await stripe.disputes.list({ payment_intent: String(second.payment_intent) }, scoped);
    expect(byIntent.data.map((dispute) => dispute.id)).toEqual([c.id]);

    const page = await stripe.disputes.list({ limit: 2 }, scoped);
    expect(page.data.map((dispute) => dispute.id)).toEqual([c.id, b.id]);
    expect(page.has_more).toBe(true);
    const next = await stripe.disputes.list({ limit: 1, starting_after: b.id }, scoped);
    expect(next.data.map((dispute) => dispute.id)).toEqual([a.id]);
    const created = await stripe.disputes.list({ created: { gte: c.created }, limit: 100 }, scoped);
    expect(created.data.map((dispute) => dispute.id)).toContain(c.id);
    expect(await stripe.disputes.list({ created: { gt: c.created + 10 } }, scoped)).toMatchObject({
      data: [],
    });

    const expanded = await stripe.disputes.retrieve(c.id, { expand: ["charge", "payment_intent"] }, scoped);
    expect(expanded.charge).toMatchObject({ object: "charge", id: second.id, disputed: true });
    expect(expanded.payment_intent).toMatchObject({ object: "payment_intent", id: second.payment_intent });
    const listed = await stripe.disputes.list({ charge: second.id, expand: ["data.charge"] }, scoped);
    expect(listed.data[0]?.charge).toMatchObject({ object: "charge", id: second.id });
    const source = await stripe.balanceTransactions.retrieve(
      c.balance_transactions[0]?.id ?? "",
      { expand: ["source"] },
      scoped,
    );
    expect(source.source).toMatchObject({ object: "dispute", id: c.id });

    const elsewhere = await stripeError(stripe.disputes.retrieve(c.id));
    expect([elsewhere.statusCode, elsewhere.code]).toEqual([404, "resource_missing"]);
    expect((await stripe.disputes.list({ charge: first.id })).data).toEqual([]);
  });
});

describe("disputes on the platform's own charges", () => {
  it("work the same, with events to the platform endpoint", async () => {
    const { session } = await createPlanSession(stripe);
    await emulator.control(`/checkout/sessions/${session.id}/complete`, {});
    const [charge] = (await stripe.charges.list({ customer: String(session.customer), limit: 1 })).data;
    const dispute = await disputed(charge?.id ?? "", { reason: "subscription_canceled" });
    expect(await stripe.disputes.retrieve(dispute.id)).toMatchObject({ status: "needs_response" });
    const [event] = await emulator.platform.waitFor("charge.dispute.funds_withdrawn");
    expect(event?.account).toBeUndefined();
    const lost = await stripe.disputes.close(dispute.id);
    expect(lost.status).toBe("lost");
    await emulator.platform.waitFor("charge.dispute.closed");
  });
});

describe("the evidence deadline", () => {
  it("loses a dispute left unanswered past due_by; a submitted one waits for the bank", async () => {
    const unanswered = await disputed((await paidCharge()).id);
    const staged = await disputed((await paidCharge()).id);
    await stripe.disputes.update(
      staged.id,
      { evidence: { uncategorized_text: "draft" }, submit: false },
      scoped,
    );
    const answered = await disputed((await paidCharge()).id);
    await stripe.disputes.update(answered.id, { evidence: { uncategorized_text: "Delivered." } }, scoped);
    const before = await lastEventId(emulator);

    await emulator.control("/clock/advance", { seconds: 7 * DAY - 60 });
    expect((await stripe.disputes.retrieve(unanswered.id, {}, scoped)).status).toBe("needs_response");
    await emulator.control("/clock/advance", { seconds: 120 });

    expect((await stripe.disputes.retrieve(unanswered.id, {}, scoped)).status).toBe("lost");
    expect((await stripe.disputes.retrieve(staged.id, {}, scoped)).status).toBe("lost");
    expect((await stripe.disputes.retrieve(answered.id, {}, scoped)).status).toBe("under_review");
    expect(
      await loggedEventTypes(emulator, seller.id, new Set([unanswered.id, answered.id]), before),
    ).toEqual(["charge.dispute.closed"]);
  });
});

describe("evidence files (POST /v1/files, purpose dispute_evidence)", () => {
  const PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");

  it("uploads a PDF as Stripe's File object, serves its bytes, and takes its id in a file evidence field", async () => {
    const file = await stripe.files.create(
      { purpose: "dispute_evidence", file: { data: PDF, name: "evidence.pdf", type: "application/pdf" } },
      scoped,
    );
    expect(file).toMatchObject({
      object: "file",
      purpose: "dispute_evidence",
      filename: "evidence.pdf",
      size: PDF.length,
      type: "pdf",
      title: null,
      expires_at: null,
      links: { object: "list", data: [], has_more: false, url: `/v1/file_links?file=${file.id}` },
    });
    expect(file.id).toMatch(/^file_/);
    expect(file.url).toMatch(new RegExp(`/v1/files/${file.id}/contents$`));
    expect((await stripe.files.retrieve(file.id, {}, scoped)).id).toBe(file.id);
    expect(
      (await stripe.files.list({ purpose: "dispute_evidence" }, scoped)).data.map((f) => f.id),
    ).toContain(file.id);
    // Another account cannot see it.
    expect((await stripeError(stripe.files.retrieve(file.id))).statusCode).toBe(404);
    const contents = await fetch(file.url!, {
      headers: { authorization: "Bearer sk_test_x", "stripe-account": seller.id },
    });
    expect(contents.status).toBe(200);
    expect(Buffer.from(await contents.arrayBuffer()).equals(PDF)).toBe(true);

    const charge = await paidCharge();
    const dispute = await disputed(charge.id);
    const unknown = await stripeError(
      stripe.disputes.update(dispute.id, { evidence: { receipt: "file_nope" }, submit: false }, scoped),
    );
    expect(unknown).toMatchObject({ statusCode: 400, code: "resource_missing", param: "evidence[receipt]" });
    const staged = await stripe.disputes.update(
      dispute.id,
      { evidence: { receipt: file.id, uncategorized_file: file.id }, submit: false },
      scoped,
    );
    expect(staged.evidence).toMatchObject({ receipt: file.id, uncategorized_file: file.id });
  });

  it("refuses other types and purposes", async () => {
    const text = await stripeError(
      stripe.files.create(
        {
          purpose: "dispute_evidence",
          file: { data: Buffer.from("hello"), name: "a.txt", type: "text/plain" },
        },
        scoped,
      ),
    );
    expect(text).toMatchObject({ statusCode: 400, param: "file" });
    const purpose = await stripeError(
      stripe.files.create(
        { purpose: "business_logo", file: { data: PDF, name: "a.pdf", type: "application/pdf" } },
        scoped,
      ),
    );
    expect(purpose).toMatchObject({ statusCode: 400, param: "purpose" });
  });
});
