import { PDFDocument } from "pdf-lib";
import type Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DISPUTE_MESSAGES, DISPUTE_RULES } from "../../src/contracts/disputes";
import { LICENSE_MESSAGES } from "../../src/contracts/licenses";
import { control } from "./support/emulator-control";
import { pdfText } from "./support/pdf-text";
import { downloadTokenOf, startFileDownload } from "./support/purchase-downloads";
import { buyProduct, createProduct, readySeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";
import { startWebhookReceiver } from "./support/webhook-receiver";

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let otherSeller: Awaited<ReturnType<typeof readySeller>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let product: { id: string };
let apiKey: string;

beforeAll(async () => {
  t = await createTestApp({
    listen: true,
    webhookPolicy: { requireHttps: false, allowPrivateHosts: ["127.0.0.1"] },
  });
  [seller, otherSeller] = await Promise.all([readySeller(t), readySeller(t)]);
  receiver = await startWebhookReceiver();
  const endpoint = await t.request({
    method: "POST",
    url: "/api/webhook-endpoints",
    cookie: seller.cookie,
    body: { url: `${receiver.url}/hooks`, events: ["sale.disputed", "sale.dispute_closed"] },
  });
  expect(endpoint.statusCode, endpoint.body).toBe(201);
  const key = await t.request({
    method: "POST",
    url: "/api/api-keys",
    cookie: seller.cookie,
    body: { name: "CRM" },
  });
  apiKey = key.json().secret;
  product = await createProduct(
    t,
    seller.cookie,
    {
      title: "Field Recordings",
      description: "Forty minutes of rain on a tin roof.",
      issueLicenseKeys: true,
    },
    { cover: false },
  );
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
afterEach(() => t.clock.reset());

let buyers = 0;
const orderOf = (orderId: string) =>
  t.db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();
const disputeRow = (id: string) =>
  t.db.selectFrom("disputes").selectAll().where("id", "=", id).executeTakeFirst();
const keyOf = async (orderId: string) =>
  (
    await t.db
      .selectFrom("license_keys")
      .select("key")
      .where("order_id", "=", orderId)
      .executeTakeFirstOrThrow()
  ).key;
const emailsTo = (to: string) =>
  t.db
    .selectFrom("outbox_emails")
    .select(["subject", "text"])
    .where("to_address", "=", to)
    .orderBy("id")
    .execute();
const sellerEmail = async () =>
  (await t.db.selectFrom("user").select("email").where("id", "=", seller.userId).executeTakeFirstOrThrow())
    .email;

/** A paid order of the product, and the dispute its buyer's bank opens (once the app has recorded it). */
async function disputedOrder(reason = "product_not_received", options: { download?: boolean } = {}) {
  const email = `disputer-${++buyers}@example.com`;
  const orderId = await buyProduct(t, product.id, email);
  // The buyer's link, as their receipt has it (the pages hand out none while the sale is disputed).
  const token = await downloadTokenOf(t, orderId);
  if (options.download) expect((await startFileDownload(t, token)).statusCode).toBe(200);
  const order = await orderOf(orderId);
  const intent = await t.stripe.paymentIntents.retrieve(
    order.payment_intent_id!,
    {},
    { stripeAccount: seller.account },
  );
  const dispute = await control(t.emulator).dispute(String(intent.latest_charge), reason);
  await eventually(async () => expect((await orderOf(orderId)).dispute_status).toBe("open"));
  return { orderId, email, dispute, token };
}

const resolve = (disputeId: string, outcome: "won" | "lost") =>
  fetch(`${t.emulator.url}/_emulator/disputes/${disputeId}/resolve`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ outcome }),
  });

const verify = (key: string) =>
  t.app.server.inject({
    method: "POST",
    url: "/api/v1/licenses/verify",
    remoteAddress: `198.51.100.${++buyers % 250}`,
    headers: { "content-type": "application/json" },
    payload: JSON.stringify({ product_id: product.id, license_key: key, increment_uses_count: false }),
  });

const page = (id: string, cookie = seller.cookie) =>
  t.request({ method: "GET", url: `/api/disputes/${id}`, cookie });
const submit = (id: string, cookie = seller.cookie, evidence?: Record<string, string>) =>
  t.request({
    method: "POST",
    url: `/api/disputes/${id}/submit`,
    cookie,
    body: evidence ? { evidence } : {},
  });

describe("Stripe's dispute events for a one-time sale", () => {
  it("records the dispute from Stripe, marks the sale Disputed, emails the creator once and sends sale.disputed once, however often the events come", async () => {
    const { orderId, email, dispute } = await disputedOrder();
    await eventually(async () => expect((await disputeRow(dispute.id))?.status).toBe("needs_response"));
    const row = (await disputeRow(dispute.id))!;
    expect(row).toMatchObject({
      seller_id: seller.userId,
      order_id: orderId,
      stripe_account_id: seller.account,
      amount_cents: 1999,
      currency: "usd",
      reason: "product_not_received",
      auto_submit: false,
      submitted_at: null,
      outcome: null,
      closed_at: null,
    });
    expect(row.due_by!.getTime()).toBe(dispute.evidence_details.due_by! * 1000);
    expect(await orderOf(orderId)).toMatchObject({
      dispute_id: dispute.id,
      dispute_status: "open",
      status: "completed",
    });

    // created and funds_withdrawn both landed; each again, twice: nothing changes twice.
    const events = (await control(t.emulator).events()).filter(
      (event) => (event.data.object as { id?: string }).id === dispute.id,
    );
    expect(events.map((event) => event.type).sort()).toEqual([
      "charge.dispute.created",
      "charge.dispute.funds_withdrawn",
    ]);
    await eventually(async () => expect(await control(t.emulator).pendingEvents()).toBe(0));
    const mailsBefore = await emailsTo(await sellerEmail());
    for (const event of events) {
      await control(t.emulator).redeliver(event.id);
      await control(t.emulator).redeliver(event.id);
    }
    await eventually(async () => expect(await control(t.emulator).pendingEvents()).toBe(0));
    const recorded = await t.db
      .selectFrom("stripe_events")
      .select("id")
      .where(
        "id",
        "in",
        events.map((event) => event.id),
      )
      .execute();
    expect(recorded).toHaveLength(2);
    expect(await emailsTo(await sellerEmail())).toEqual(mailsBefore);
    const opened = mailsBefore.filter(
      (mail) => mail.subject.includes("was disputed") && mail.text.includes(email),
    );
    expect(opened).toHaveLength(1);
    expect(opened[0]!.subject).toBe("A sale of Field Recordings was disputed ($19.99)");
    expect(opened[0]!.text).toContain("Reason given: Product not received.");
    expect(opened[0]!.text).toMatch(/Submit your evidence by [A-Z][a-z]+ \d+, \d{4} at .+ UTC/);
    expect(opened[0]!.text).toContain(`/dashboard/disputes/${dispute.id}`);

    const deliveries = await t.db
      .selectFrom("webhook_deliveries")
      .select(["event_type", "payload"])
      .where("seller_id", "=", seller.userId)
      .where("event_type", "=", "sale.disputed")
      .execute();
    const mine = deliveries.filter((delivery) => JSON.parse(delivery.payload).data.order_id === orderId);
    expect(mine).toHaveLength(1);
    const body = JSON.parse(mine[0]!.payload);
    expect(body).toMatchObject({
      type: "sale.disputed",
      data: {
        order_id: orderId,
        status: "completed",
        dispute_status: "open",
        dispute: { id: dispute.id, status: "needs_response", reason: "product_not_received", amount: 1999 },
      },
    });
    await eventually(async () =>
      expect(receiver.received.some((hook) => JSON.parse(hook.body).data?.order_id === orderId)).toBe(true),
    );
  });

  it("leaves a membership's disputed period to memberships, and a payment that is not a sale alone", async () => {
    const before = await t.db.selectFrom("disputes").select("id").execute();
    // A charge of the seller's account that no order names (their own payment outside Flatfee).
    const session = await t.stripe.checkout.sessions.create(
      {
        mode: "payment",
        success_url: "https://example.com/ok",
        line_items: [
          {
            price_data: { currency: "usd", unit_amount: 500, product_data: { name: "Elsewhere" } },
            quantity: 1,
          },
        ],
      },
      { stripeAccount: seller.account },
    );
    await control(t.emulator).payCheckout(session.id);
    const paid = await t.stripe.checkout.sessions.retrieve(
      session.id,
      { expand: ["payment_intent"] },
      { stripeAccount: seller.account },
    );
    const charge = (paid.payment_intent as Stripe.PaymentIntent).latest_charge;
    await control(t.emulator).dispute(String(charge));
    await eventually(async () => expect(await control(t.emulator).pendingEvents()).toBe(0));
    expect(await t.db.selectFrom("disputes").select("id").execute()).toEqual(before);
  });
});

describe("the buyer's access while disputed", () => {
  it("suspends the downloads and the license key, and restores both when the creator wins", async () => {
    const { orderId, dispute, token } = await disputedOrder("fraudulent");
    const key = await keyOf(orderId);

    const download = await t.request({ method: "GET", url: `/api/downloads/${token}` });
    expect(download.json().purchase).toMatchObject({
      unavailableReason: DISPUTE_MESSAGES.buyerSuspended,
      downloadPath: null,
      licenseKey: { key, disabled: true },
    });
    const refused = await startFileDownload(t, token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(DISPUTE_MESSAGES.buyerSuspended);
    const check = await verify(key);
    expect(check.statusCode).toBe(403);
    expect(check.json()).toMatchObject({ code: "license_suspended", message: LICENSE_MESSAGES.suspended });

    expect((await resolve(dispute.id, "won")).status).toBe(200);
    await eventually(async () => expect((await orderOf(orderId)).dispute_status).toBe("won"));
    expect(await disputeRow(dispute.id)).toMatchObject({ status: "won", outcome: "won" });
    expect((await disputeRow(dispute.id))!.closed_at).not.toBeNull();
    const again = await startFileDownload(t, token);
    expect(again.statusCode, again.body).toBe(200);
    expect((await verify(key)).statusCode).toBe(200);
    await eventually(async () => {
      const mails = await emailsTo(await sellerEmail());
      expect(
        mails.filter((mail) => mail.subject === "You won the dispute of a sale of Field Recordings"),
      ).not.toHaveLength(0);
    });
    await eventually(async () =>
      expect(
        receiver.received.some((hook) => {
          const body = JSON.parse(hook.body);
          return (
            body.type === "sale.dispute_closed" &&
            body.data.order_id === orderId &&
            body.data.dispute_status === "won"
          );
        }),
      ).toBe(true),
    );
  });

  it("keeps them revoked when the creator loses", async () => {
    const { orderId, dispute, token } = await disputedOrder();
    expect((await resolve(dispute.id, "lost")).status).toBe(200);
    await eventually(async () => expect((await orderOf(orderId)).dispute_status).toBe("lost"));
    const refused = await startFileDownload(t, token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(DISPUTE_MESSAGES.buyerLost);
    const check = await verify(await keyOf(orderId));
    expect(check.json()).toMatchObject({ code: "license_suspended", message: LICENSE_MESSAGES.disputeLost });
  });
});

describe("the sale shows its dispute", () => {
  it("in the sales table, the CSV and the seller API", async () => {
    const { orderId, dispute } = await disputedOrder();
    const sales = await t.request({ method: "GET", url: "/api/orders?limit=50", cookie: seller.cookie });
    const sale = sales.json().sales.find((row: { id: string }) => row.id === orderId);
    expect(sale.dispute).toEqual({ id: dispute.id, status: "open" });

    const csv = await t.request({
      method: "GET",
      url: "/api/orders/export.csv?tz=UTC",
      cookie: seller.cookie,
    });
    const [header, ...lines] = csv.body.trimEnd().split("\n");
    expect(header!.split(",").at(-1)).toBe("Dispute");
    const email = (await orderOf(orderId)).customer_email;
    expect(
      lines
        .find((line) => line.startsWith(email))!
        .split(",")
        .at(-1),
    ).toBe("Disputed");

    const api = await t.app.server.inject({
      method: "GET",
      url: "/api/v1/sales?limit=50",
      remoteAddress: "203.0.113.9",
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(api.statusCode, api.body).toBe(200);
    expect(api.json().sales.find((row: { id: string }) => row.id === orderId).dispute).toEqual({
      id: dispute.id,
      status: "open",
    });
  });
});

describe("the dispute page", () => {
  it("shows the deadline, amount, reason and the assembled evidence; another seller gets 404 for all of it", async () => {
    const { orderId, email, dispute } = await disputedOrder("product_not_received", { download: true });
    const response = await page(dispute.id);
    expect(response.statusCode, response.body).toBe(200);
    const view = response.json();
    expect(view).toMatchObject({
      id: dispute.id,
      orderId,
      productTitle: "Field Recordings",
      customerEmail: email,
      amountCents: 1999,
      currency: "usd",
      reason: "product_not_received",
      status: "needs_response",
      autoSubmit: false,
      submittedAt: null,
      canSubmit: true,
      pdfPath: `/api/disputes/${dispute.id}/evidence.pdf`,
    });
    expect(view.dueBy).toBe(new Date(dispute.evidence_details.due_by! * 1000).toISOString());
    expect(view.evidence.customer_email_address).toBe(email);
    expect(view.evidence.product_description).toContain("Forty minutes of rain on a tin roof.");
    expect(view.evidence.access_activity_log).toMatch(/UTC downloaded guide\.pdf/);
    // No country header set up here: the activity names no country (none is looked up from the IP).
    expect(view.evidence.access_activity_log).not.toContain(" from ");
    expect(view.evidence.access_activity_log).toContain(`License key ${await keyOf(orderId)}`);
    expect(view.evidence.refund_policy_disclosure).toContain("You can download each file up to 3 times");
    expect(view.evidence.service_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const pdf = await t.request({ method: "GET", url: view.pdfPath, cookie: seller.cookie });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect((await PDFDocument.load(pdf.rawPayload)).getPageCount()).toBe(1);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain("Dispute evidence");
    expect(text).toContain(orderId);

    for (const request of [
      page(dispute.id, otherSeller.cookie),
      t.request({ method: "GET", url: view.pdfPath, cookie: otherSeller.cookie }),
      t.request({
        method: "PATCH",
        url: `/api/disputes/${dispute.id}`,
        cookie: otherSeller.cookie,
        body: { autoSubmit: true },
      }),
      submit(dispute.id, otherSeller.cookie),
    ]) {
      const answer = await request;
      expect(answer.statusCode).toBe(404);
      expect(answer.json().message).toBe(DISPUTE_MESSAGES.notFound);
    }
    expect((await disputeRow(dispute.id))!.auto_submit).toBe(false);
    expect((await page("dp_nope")).statusCode).toBe(404);
  });

  it("saves a draft, submits the evidence with the PDF as a Stripe file, then refuses a second submission and any change once closed", async () => {
    const { dispute } = await disputedOrder();
    const saved = await t.request({
      method: "PATCH",
      url: `/api/disputes/${dispute.id}`,
      cookie: seller.cookie,
      body: { evidence: { refund_refusal_explanation: "The buyer downloaded them twice." } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().evidence.refund_refusal_explanation).toBe("The buyer downloaded them twice.");

    const sent = await submit(dispute.id, seller.cookie, { uncategorized_text: "See the attached PDF." });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ status: "under_review", canSubmit: false });
    expect(sent.json().submittedAt).not.toBeNull();

    const atStripe = await t.stripe.disputes.retrieve(dispute.id, {}, { stripeAccount: seller.account });
    expect(atStripe).toMatchObject({
      status: "under_review",
      evidence: {
        refund_refusal_explanation: "The buyer downloaded them twice.",
        uncategorized_text: "See the attached PDF.",
        product_description: expect.stringContaining("Field Recordings"),
      },
      evidence_details: { submission_count: 1 },
      metadata: { submitted_by: "flatfee_creator" },
    });
    const fileId = atStripe.evidence.receipt as string;
    expect(atStripe.evidence.uncategorized_file).toBe(fileId);
    const file = await t.stripe.files.retrieve(fileId, {}, { stripeAccount: seller.account });
    expect(file).toMatchObject({ object: "file", purpose: "dispute_evidence", type: "pdf" });
    expect((await disputeRow(dispute.id))!.evidence_file_id).toBe(fileId);
    const contents = await fetch(file.url!, {
      headers: { authorization: "Bearer sk_test_local_emulator", "stripe-account": seller.account },
    });
    expect(await pdfText(new Uint8Array(await contents.arrayBuffer()))).toContain(
      "The buyer downloaded them twice.",
    );

    const twice = await submit(dispute.id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({
      code: "dispute_already_submitted",
      message: DISPUTE_MESSAGES.alreadySubmitted,
    });

    expect((await resolve(dispute.id, "won")).status).toBe(200);
    await eventually(async () => expect((await disputeRow(dispute.id))?.status).toBe("won"));
    const closed = await t.request({
      method: "PATCH",
      url: `/api/disputes/${dispute.id}`,
      cookie: seller.cookie,
      body: { evidence: { uncategorized_text: "late" } },
    });
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({ code: "dispute_closed", message: DISPUTE_MESSAGES.closed });
    expect((await submit(dispute.id)).json().message).toBe(DISPUTE_MESSAGES.closed);
  });
});

describe("auto-submit", () => {
  it("submits the evidence 48 hours before the deadline when the creator opted in and had not submitted", async () => {
    const { dispute } = await disputedOrder();
    const optIn = await t.request({
      method: "PATCH",
      url: `/api/disputes/${dispute.id}`,
      cookie: seller.cookie,
      body: { autoSubmit: true },
    });
    expect(optIn.statusCode, optIn.body).toBe(200);
    expect(optIn.json().autoSubmit).toBe(true);
    const job = await t.db
      .selectFrom("jobs")
      .select(["run_at", "status"])
      .where("unique_key", "=", `dispute-auto-submit:${dispute.id}`)
      .executeTakeFirstOrThrow();
    expect(job.run_at.getTime()).toBe(
      dispute.evidence_details.due_by! * 1000 - DISPUTE_RULES.autoSubmitBeforeDueMs,
    );

    // A little before: nothing yet.
    t.clock.advance(job.run_at.getTime() - Date.now() - 60 * 60_000);
    await t.app.jobs.runDue();
    expect((await disputeRow(dispute.id))!.submitted_at).toBeNull();

    // Its moment: submitted as the creator would.
    t.clock.advance(2 * 60 * 60_000);
    await t.app.jobs.runDue();
    await eventually(async () => expect((await disputeRow(dispute.id))!.submitted_at).not.toBeNull());
    const atStripe = await t.stripe.disputes.retrieve(dispute.id, {}, { stripeAccount: seller.account });
    expect(atStripe).toMatchObject({
      status: "under_review",
      metadata: { submitted_by: "flatfee_auto_submit" },
      evidence_details: { submission_count: 1 },
    });
  });

  it("does nothing when the creator opted out, or submitted first", async () => {
    const optedOut = await disputedOrder();
    const submittedFirst = await disputedOrder();
    for (const { dispute } of [optedOut, submittedFirst]) {
      await t.request({
        method: "PATCH",
        url: `/api/disputes/${dispute.id}`,
        cookie: seller.cookie,
        body: { autoSubmit: true },
      });
    }
    await t.request({
      method: "PATCH",
      url: `/api/disputes/${optedOut.dispute.id}`,
      cookie: seller.cookie,
      body: { autoSubmit: false },
    });
    expect((await submit(submittedFirst.dispute.id)).statusCode).toBe(200);
    t.clock.advance(6 * 24 * 60 * 60_000);
    await t.app.jobs.runDue();
    const out = await t.stripe.disputes.retrieve(optedOut.dispute.id, {}, { stripeAccount: seller.account });
    expect(out.evidence_details.submission_count).toBe(0);
    const first = await t.stripe.disputes.retrieve(
      submittedFirst.dispute.id,
      {},
      { stripeAccount: seller.account },
    );
    expect(first.evidence_details.submission_count).toBe(1);
    expect(first.metadata).toEqual({ submitted_by: "flatfee_creator" });
  });
});
