import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saleDisputeStatusOf } from "../../src/contracts/disputes";
import { control } from "./support/emulator-control";
import { buyProduct, createProduct, readySeller } from "./support/sellers";
import { createTestApp, type TestApp, WEBHOOK_SECRETS } from "./support/test-app";
import { eventually } from "./support/wait";

// A dispute the creator loses takes the money back as a refund does: the seller's totals, the buyer's
// customer total, analytics and a code's revenue stop counting it, once. A won dispute changes nothing.

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let product: { id: string };

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  seller = await readySeller(t);
  product = await createProduct(t, seller.cookie, { title: "Tape Loops", price: "15.00" }, { cover: false });
  const code = await t.request({
    method: "POST",
    url: "/api/discount-codes",
    cookie: seller.cookie,
    body: { code: CODE, kind: "percent", value: "20", appliesTo: "all" },
  });
  expect(code.statusCode, code.body).toBe(201);
});
afterAll(async () => {
  await t.close();
});

const get = async (url: string) => {
  const response = await t.request({ method: "GET", url, cookie: seller.cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const money = async () => {
  const stats = await get("/api/dashboard/stats");
  const analytics = await get("/api/analytics?period=7d");
  return {
    revenue: stats.totalRevenueCents as number,
    units: stats.unitsSold as number,
    analytics: analytics.totals.revenueCents as number,
  };
};
const customerTotal = async (email: string) =>
  (
    (await get(`/api/customers?q=${encodeURIComponent(email)}`)).customers as {
      email: string;
      totalCents: number;
    }[]
  ).find((customer) => customer.email === email)?.totalCents;
const orderOf = (orderId: string) =>
  t.db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();

const CODE = "RAIN10";
const codeRevenue = async () =>
  ((await get("/api/discount-codes")).codes as { code: string; revenueCents: number }[]).find(
    (code) => code.code === CODE,
  )?.revenueCents;

let buyers = 0;
async function disputedSale() {
  const email = `chargeback-${++buyers}@example.com`;
  const orderId = await buyProduct(t, product.id, email, { code: CODE });
  const order = await orderOf(orderId);
  const intent = await t.stripe.paymentIntents.retrieve(
    order.payment_intent_id!,
    {},
    { stripeAccount: seller.account },
  );
  const dispute = await control(t.emulator).dispute(String(intent.latest_charge), "fraudulent");
  await eventually(async () => expect((await orderOf(orderId)).dispute_status).toBe("open"));
  return { orderId, email, disputeId: dispute.id as string };
}
const resolve = async (disputeId: string, outcome: "won" | "lost") => {
  const response = await fetch(`${t.emulator.url}/_emulator/disputes/${disputeId}/resolve`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ outcome }),
  });
  expect(response.status).toBe(200);
};

/** A signed Connect event (the app reads the dispute back from Stripe: the body is only a hint). */
function sendConnectEvent(type: string, object: unknown) {
  const payload = JSON.stringify({
    id: `evt_again_${Math.random().toString(36).slice(2)}`,
    object: "event",
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    type,
    account: seller.account,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRETS.connect });
  return t.request({
    method: "POST",
    url: "/api/webhooks/stripe-connect",
    headers: { "stripe-signature": signature, "content-type": "application/json" },
    body: payload,
  });
}

describe("a dispute's outcome in the seller's money", () => {
  it("a lost dispute leaves the totals, analytics and the customer's total once; a won one stays", async () => {
    const lost = await disputedSale();
    const won = await disputedSale();
    // Opening a dispute changes no total: the bank has not decided.
    const before = await money();
    expect(before).toEqual({ revenue: 2400, units: 2, analytics: 2400 });
    expect(await codeRevenue()).toBe(2400);
    expect(await customerTotal(lost.email)).toBe(1200);

    await resolve(won.disputeId, "won");
    await eventually(async () => expect((await orderOf(won.orderId)).dispute_status).toBe("won"));
    await resolve(lost.disputeId, "lost");
    await eventually(async () => expect((await orderOf(lost.orderId)).dispute_status).toBe("lost"));

    const after = await money();
    expect(after).toEqual({ revenue: 1200, units: 1, analytics: 1200 });
    expect(await codeRevenue()).toBe(1200);
    expect(await customerTotal(lost.email)).toBe(0);
    expect(await customerTotal(won.email)).toBe(1200);
    // The order itself is still a completed order, with its dispute lost (not a refund).
    expect((await orderOf(lost.orderId)).status).toBe("completed");

    // Stripe sends the closed dispute again (a redelivery, or `.updated` after `.closed`): nothing moves.
    const dispute = await t.stripe.disputes.retrieve(lost.disputeId, {}, { stripeAccount: seller.account });
    const replay = await sendConnectEvent("charge.dispute.updated", dispute);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(await money()).toEqual(after);
  });
});

describe("where a Stripe dispute status leaves the sale", () => {
  it("an inquiry closed without a chargeback gives the buyer their access back", () => {
    expect(saleDisputeStatusOf("warning_needs_response")).toBe("open");
    expect(saleDisputeStatusOf("warning_under_review")).toBe("open");
    expect(saleDisputeStatusOf("warning_closed")).toBe("won");
    expect(saleDisputeStatusOf("needs_response")).toBe("open");
    expect(saleDisputeStatusOf("lost")).toBe("lost");
  });
});
