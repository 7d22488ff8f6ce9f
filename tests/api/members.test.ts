import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMBER_ACTION_MESSAGES } from "../../src/contracts/memberships";
import { minimalPdf } from "../../src/server/features/uploads/test-fixtures";
import { control } from "./support/emulator-control";
import { readySeller, upload } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let other: Awaited<ReturnType<typeof readySeller>>;
let product: { id: string; tiers: { id: string }[] };
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  seller = await readySeller(t);
  other = await readySeller(t);
  const files = [{ uploadId: await upload(t, seller.cookie, "product-file", "a.pdf", minimalPdf(501)) }];
  const created = await t.request({
    method: "POST",
    url: "/api/products",
    cookie: seller.cookie,
    body: {
      kind: "membership",
      title: "Members Only",
      files,
      tiers: [
        { name: "Fan", monthlyPrice: "5", yearlyPrice: "50" },
        { name: "Patron", monthlyPrice: "20" },
      ],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  product = created.json();
});
afterAll(async () => {
  await t.close();
});

const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const membershipOf = (email: string) =>
  t.db.selectFrom("memberships").selectAll().where("customer_email", "=", email).executeTakeFirst();

async function member(email: string, tier: number, interval: "month" | "year" = "month") {
  const response = await t.request({
    method: "POST",
    url: "/api/checkout/subscribe",
    body: { productId: product.id, tierId: product.tiers[tier]!.id, interval },
  });
  expect(response.statusCode, response.body).toBe(200);
  await control(t.emulator).payCheckout(sessionIdOf(response.json().url), "4242424242424242", email);
  await eventually(async () => expect((await membershipOf(email))?.status).toBe("active"));
  await eventually(async () => {
    const id = (await membershipOf(email))!.id;
    const paid = await t.db.selectFrom("orders").select("id").where("membership_id", "=", id).execute();
    expect(paid).toHaveLength(1);
  });
  return (await membershipOf(email))!;
}

const list = (query = "", cookie = seller.cookie) =>
  t.request({ method: "GET", url: `/api/memberships${query}`, cookie });

describe("the members page", () => {
  it("lists members newest first with tier, interval, status, renewal and lifetime spend; filters, searches, pages", async () => {
    const ada = await member("ada@members.test", 0, "year");
    const bob = await member("bob@members.test", 1);
    await member("cyd@members.test", 1);
    await control(t.emulator).renew(bob.stripe_subscription_id, "paid");
    await eventually(async () => {
      const page = (await list()).json();
      expect(
        page.members.find((m: { email: string }) => m.email === "bob@members.test").lifetimeSpendCents,
      ).toBe(4000);
    });
    const page = (await list()).json();
    expect(page.members.map((m: { email: string }) => m.email)).toEqual([
      "cyd@members.test",
      "bob@members.test",
      "ada@members.test",
    ]);
    expect(page.members[2]).toMatchObject({
      productTitle: "Members Only",
      tierName: "Fan",
      interval: "year",
      amountCents: 5000,
      status: "active",
      statusLabel: "Active",
      lifetimeSpendCents: 5000,
      hasAccess: true,
    });
    expect(page.members[2].currentPeriodEnd).toBe(ada.current_period_end.toISOString());

    const searched = (await list("?q=bob")).json();
    expect(searched.members.map((m: { email: string }) => m.email)).toEqual(["bob@members.test"]);
    const first = (await list("?limit=2")).json();
    expect(first.members).toHaveLength(2);
    const second = (await list(`?limit=2&before=${first.nextCursor}`)).json();
    expect(second.members.map((m: { email: string }) => m.email)).toEqual(["ada@members.test"]);
    expect(second.nextCursor).toBeNull();

    // Another seller sees none of them.
    expect((await list("", other.cookie)).json().members).toEqual([]);
  });

  it("cancels at period end (access until then) or now (access ends), and filters by status", async () => {
    const dee = await member("dee@members.test", 0);
    const eve = await member("eve@members.test", 0);
    const atEnd = await t.request({
      method: "POST",
      url: `/api/memberships/${dee.id}/cancel`,
      cookie: seller.cookie,
      body: { when: "period_end" },
    });
    expect(atEnd.statusCode, atEnd.body).toBe(200);
    expect(atEnd.json()).toMatchObject({
      status: "canceling",
      statusLabel: "Canceled at period end",
      hasAccess: true,
    });
    const now = await t.request({
      method: "POST",
      url: `/api/memberships/${eve.id}/cancel`,
      cookie: seller.cookie,
      body: { when: "now" },
    });
    expect(now.json()).toMatchObject({ status: "ended", hasAccess: false });
    const again = await t.request({
      method: "POST",
      url: `/api/memberships/${eve.id}/cancel`,
      cookie: seller.cookie,
      body: { when: "now" },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(MEMBER_ACTION_MESSAGES.alreadyEnded);

    const emails = async (status: string) =>
      (await list(`?status=${status}`)).json().members.map((m: { email: string }) => m.email);
    expect(await emails("canceling")).toEqual(["dee@members.test"]);
    expect(await emails("ended")).toEqual(["eve@members.test"]);
    expect(await emails("active")).not.toContain("dee@members.test");

    // Another seller's member: 404, and nothing changes on Stripe.
    const foreign = await t.request({
      method: "POST",
      url: `/api/memberships/${dee.id}/cancel`,
      cookie: other.cookie,
      body: { when: "now" },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await membershipOf("dee@members.test"))?.status).toBe("active");
  });

  it("exports the filtered list as CSV", async () => {
    const csv = await t.request({
      method: "GET",
      url: "/api/memberships/export.csv?q=members.test&status=all&tz=UTC",
      cookie: seller.cookie,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    const lines = csv.body.trim().split("\n");
    expect(lines[0]).toBe("Email,Product,Tier,Interval,Amount,Status,Started,Renews or Ends,Lifetime Spend");
    expect(lines.find((line) => line.startsWith("ada@members.test"))).toContain(
      "Members Only,Fan,year,50.00,Active",
    );
    expect(lines.length).toBeGreaterThanOrEqual(6);
    const anonymous = await t.request({ method: "GET", url: "/api/memberships/export.csv" });
    expect(anonymous.statusCode).toBe(401);
  });

  it("moves MRR, members, new and churned members, and renewal revenue on the analytics page", async () => {
    const analytics = await t.request({
      method: "GET",
      url: "/api/analytics?period=30d",
      cookie: seller.cookie,
    });
    expect(analytics.statusCode, analytics.body).toBe(200);
    // ada pays $50 a year (a twelfth a month, rounded once), bob and cyd $20 a month, dee $5 a month
    // until her period ends; eve ended. bob's second period is the one renewal.
    expect(analytics.json().memberships).toEqual({
      mrrCents: 2000 + 2000 + 500 + Math.round(5000 / 12),
      payingMembers: 4,
      trialingMembers: 0,
      newMembers: 5,
      churnedMembers: 1,
      renewalRevenueCents: 2000,
    });
    // A seller who never had a member sees no membership figures.
    const none = await t.request({ method: "GET", url: "/api/analytics?period=30d", cookie: other.cookie });
    expect(none.json().memberships).toBeNull();
  });
});
