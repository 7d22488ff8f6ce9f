import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCOUNT_REFUSAL_MESSAGES } from "../../src/contracts/discounts";
import {
  hasMembershipAccess,
  MEMBERSHIP_CHANGE_MESSAGES,
  MEMBERSHIP_MESSAGES,
} from "../../src/contracts/memberships";
import { membershipMetrics } from "../../src/server/features/memberships";
import { readSubscription } from "../../src/server/features/memberships/events/membership-events";
import { sendYearlyReminders } from "../../src/server/features/memberships/renewal-reminders";
import { syncMembership } from "../../src/server/features/memberships/sync-membership";
import { minimalPdf } from "../../src/server/features/uploads/test-fixtures";
import { control } from "./support/emulator-control";
import { readySeller, upload } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  // Listening: the emulator's webhooks (subscriptions, invoices) reach the app.
  t = await createTestApp({ listen: true });
  seller = await readySeller(t);
});
afterAll(async () => {
  await t.close();
});

const DAY_MS = 24 * 60 * 60 * 1000;
let emailCounter = 0;
const newEmail = () => `member-${Date.now()}-${++emailCounter}@example.com`;
const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;

async function membershipProduct(tiers: Record<string, unknown>[]) {
  const files = [{ uploadId: await upload(t, seller.cookie, "product-file", "lesson.pdf", minimalPdf(401)) }];
  const response = await t.request({
    method: "POST",
    url: "/api/products",
    cookie: seller.cookie,
    body: { kind: "membership", title: "The Club", files, tiers },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; tiers: { id: string; name: string }[] };
}

const subscribe = (productId: string, tierId: string, interval: "month" | "year" = "month") =>
  t.request({ method: "POST", url: "/api/checkout/subscribe", body: { productId, tierId, interval } });

const membershipOf = (email: string) =>
  t.db.selectFrom("memberships").selectAll().where("customer_email", "=", email).executeTakeFirst();
const ordersOf = (membershipId: string) =>
  t.db
    .selectFrom("orders")
    .selectAll()
    .where("membership_id", "=", membershipId)
    .orderBy("created_at")
    .execute();
const subjectsTo = async (to: string) =>
  (
    await t.db
      .selectFrom("outbox_emails")
      .select("subject")
      .where("to_address", "=", to)
      .orderBy("id")
      .execute()
  ).map((row) => row.subject);

/** A buyer subscribes and pays with 4242; answers the membership once Stripe's events made it. */
async function becomeMember(productId: string, tierId: string, interval: "month" | "year" = "month") {
  const email = newEmail();
  const response = await subscribe(productId, tierId, interval);
  expect(response.statusCode, response.body).toBe(200);
  lastSessionId = sessionIdOf(response.json().url);
  await control(t.emulator).payCheckout(lastSessionId, "4242424242424242", email);
  await eventually(async () => expect((await membershipOf(email))?.status).toMatch(/active|trialing/));
  return (await membershipOf(email))!;
}
let lastSessionId = "";

/** The library behind the welcome email's link, as the member opens it from their inbox. */
async function libraryTokenOf(email: string) {
  const welcome = await t.db
    .selectFrom("outbox_emails")
    .select("text")
    .where("to_address", "=", email)
    .where("subject", "like", "Welcome to%")
    .executeTakeFirstOrThrow();
  const url = new URL(welcome.text.match(/http:\/\/localhost:3000\/library\?token=\S+/)![0]);
  return url.searchParams.get("token")!;
}
const libraryOf = async (token: string) =>
  (await t.request({ method: "GET", url: `/api/library?token=${encodeURIComponent(token)}` })).json();

describe("subscribing to a membership", () => {
  it("starts a membership on the seller's account: the first payment is an order for its period", async () => {
    const product = await membershipProduct([
      { name: "Fan", monthlyPrice: "5", yearlyPrice: "50" },
      { name: "Patron", monthlyPrice: "15" },
    ]);
    const membership = await becomeMember(product.id, product.tiers[1]!.id);
    expect(membership).toMatchObject({
      status: "active",
      tier_id: product.tiers[1]!.id,
      tier_name: "Patron",
      billing_interval: "month",
      amount_cents: 1500,
      seller_id: seller.userId,
      stripe_account_id: seller.account,
    });
    await eventually(async () => expect(await ordersOf(membership.id)).toHaveLength(1));
    const [order] = await ordersOf(membership.id);
    expect(order).toMatchObject({ amount_cents: 1500, product_id: product.id, status: "completed" });
    expect(order!.period_end!.getTime()).toBe(membership.current_period_end.getTime());
    await eventually(async () =>
      expect(await subjectsTo(membership.customer_email)).toEqual([
        "Welcome to The Club",
        "Your receipt: The Club",
      ]),
    );
    expect(hasMembershipAccess(membership, t.clock.now())).toBe(true);
    // The success page shows the first period, with the tier's files to download.
    const success = await t.request({ method: "GET", url: `/api/orders/by-session/${lastSessionId}` });
    expect(success.statusCode, success.body).toBe(200);
    expect(success.json().purchase).toMatchObject({ amountCents: 1500, productTitle: "The Club" });
    expect(success.json().purchase.downloadPath).toMatch(/^\/download\//);

    const subscription = await t.stripe.subscriptions.retrieve(
      membership.stripe_subscription_id,
      {},
      { stripeAccount: seller.account },
    );
    expect(subscription.application_fee_percent).toBeNull();
  });

  it("bills the yearly price, and refuses a closed tier or a yearly price the tier has not", async () => {
    const product = await membershipProduct([
      { name: "Fan", monthlyPrice: "5", yearlyPrice: "50" },
      { name: "Patron", monthlyPrice: "15" },
    ]);
    const yearly = await becomeMember(product.id, product.tiers[0]!.id, "year");
    expect(yearly).toMatchObject({ billing_interval: "year", amount_cents: 5000 });

    const noYearly = await subscribe(product.id, product.tiers[1]!.id, "year");
    expect(noYearly.statusCode).toBe(400);
    expect(noYearly.json().message).toBe(MEMBERSHIP_MESSAGES.yearlyNotOffered);
    const unknown = await subscribe(product.id, "tier_unknown");
    expect(unknown.json().message).toBe(MEMBERSHIP_MESSAGES.tierNotOffered);

    const close = await t.request({
      method: "PATCH",
      url: `/api/products/${product.id}`,
      cookie: seller.cookie,
      body: {
        tiers: [
          { id: product.tiers[0]!.id, name: "Fan", monthlyPrice: "5", yearlyPrice: "50", closed: true },
          { id: product.tiers[1]!.id, name: "Patron", monthlyPrice: "15" },
        ],
      },
    });
    expect(close.statusCode, close.body).toBe(200);
    const closed = await subscribe(product.id, product.tiers[0]!.id);
    expect(closed.statusCode).toBe(400);
    expect(closed.json().message).toBe(MEMBERSHIP_MESSAGES.tierNotOffered);
    // The member of the closed tier keeps it.
    expect((await membershipOf(yearly.customer_email))?.tier_id).toBe(product.tiers[0]!.id);

    const oneTime = await subscribe("not-a-product", product.tiers[0]!.id);
    expect(oneTime.statusCode).toBe(404);
  });

  it("renews: each paid period is an order; a failed renewal is past due, keeps access for the grace days, and is told once", async () => {
    const product = await membershipProduct([{ name: "Fan", monthlyPrice: "7" }]);
    const membership = await becomeMember(product.id, product.tiers[0]!.id);
    const subscriptionId = membership.stripe_subscription_id;

    await control(t.emulator).renew(subscriptionId, "paid");
    await eventually(async () => expect(await ordersOf(membership.id)).toHaveLength(2));
    const renewed = (await membershipOf(membership.customer_email))!;
    expect(renewed.current_period_end.getTime()).toBeGreaterThan(membership.current_period_end.getTime());
    const [, second] = await ordersOf(membership.id);
    expect(second!.period_start!.getTime()).toBe(membership.current_period_end.getTime());

    await control(t.emulator).renew(subscriptionId, "failed");
    await eventually(async () =>
      expect((await membershipOf(membership.customer_email))?.status).toBe("past_due"),
    );
    const pastDue = (await membershipOf(membership.customer_email))!;
    expect(pastDue.past_due_since).not.toBeNull();
    expect(hasMembershipAccess(pastDue, t.clock.now())).toBe(true);
    expect(
      hasMembershipAccess(pastDue, new Date(pastDue.past_due_since!.getTime() + 3 * DAY_MS + 1000)),
    ).toBe(false);
    await eventually(async () =>
      expect(await subjectsTo(membership.customer_email)).toContain("Payment failed: The Club"),
    );
    // Stripe's retry succeeds: the member is active again at once, and the period's order is made.
    await control(t.emulator).renew(subscriptionId, "paid");
    await eventually(async () =>
      expect((await membershipOf(membership.customer_email))?.status).toBe("active"),
    );
    expect((await membershipOf(membership.customer_email))?.past_due_since).toBeNull();
    await eventually(async () => expect(await ordersOf(membership.id)).toHaveLength(3));
    expect(
      (await subjectsTo(membership.customer_email)).filter((s) => s.startsWith("Payment failed")),
    ).toHaveLength(1);

    // The sales table and its CSV show each paid period as a sale of the product, with its period.
    const sales = (
      await t.request({ method: "GET", url: "/api/orders?limit=100", cookie: seller.cookie })
    ).json();
    const periods = sales.sales.filter(
      (sale: { customerEmail: string }) => sale.customerEmail === membership.customer_email,
    );
    expect(periods).toHaveLength(3);
    expect(periods.at(-1)).toMatchObject({
      productTitle: "The Club",
      amountCents: 700,
      periodStart: membership.current_period_start.toISOString(),
      periodEnd: membership.current_period_end.toISOString(),
    });
    const csv = await t.request({
      method: "GET",
      url: "/api/orders/export.csv?tz=UTC",
      cookie: seller.cookie,
    });
    const line = csv.body.split("\n").find((row) => row.startsWith(membership.customer_email));
    expect(line).toMatch(/,7\.00,"[^"]+",,0\.00,"[^"]+","[^"]+",0\.00,,,,,USD,7\.00,USD,$/);
  });

  it("ends: canceled at period end keeps access until then; the end stops it and is told", async () => {
    const product = await membershipProduct([{ name: "Fan", monthlyPrice: "6" }]);
    const membership = await becomeMember(product.id, product.tiers[0]!.id);
    await t.stripe.subscriptions.update(
      membership.stripe_subscription_id,
      { cancel_at_period_end: true },
      { stripeAccount: seller.account },
    );
    await eventually(async () =>
      expect((await membershipOf(membership.customer_email))?.cancel_at_period_end).toBe(true),
    );
    const canceling = (await membershipOf(membership.customer_email))!;
    expect(hasMembershipAccess(canceling, t.clock.now())).toBe(true);
    await t.stripe.subscriptions.cancel(
      membership.stripe_subscription_id,
      {},
      { stripeAccount: seller.account },
    );
    await eventually(async () =>
      expect((await membershipOf(membership.customer_email))?.status).toBe("canceled"),
    );
    const ended = (await membershipOf(membership.customer_email))!;
    expect(hasMembershipAccess(ended, t.clock.now())).toBe(false);
    expect(ended.ended_at).not.toBeNull();
    // The membership's own emails in the order its life went; the first period's receipt comes from its
    // invoice's event, which may be handled before or after the cancellation's.
    await eventually(async () => {
      const subjects = await subjectsTo(membership.customer_email);
      expect(subjects.filter((subject) => !subject.startsWith("Your receipt"))).toEqual([
        "Welcome to The Club",
        "Membership canceled: The Club",
        "Membership ended: The Club",
      ]);
      expect(subjects.filter((subject) => subject === "Your receipt: The Club")).toHaveLength(1);
    });
  });

  it("never lets an older read overwrite a newer one, and ignores a redelivered event", async () => {
    const product = await membershipProduct([{ name: "Fan", monthlyPrice: "8" }]);
    const membership = await becomeMember(product.id, product.tiers[0]!.id);
    const events = (await control(t.emulator).events()).filter(
      (event) =>
        event.type === "customer.subscription.created" &&
        (event.data.object as { id: string }).id === membership.stripe_subscription_id,
    );
    await t.stripe.subscriptions.cancel(
      membership.stripe_subscription_id,
      {},
      { stripeAccount: seller.account },
    );
    await eventually(async () =>
      expect((await membershipOf(membership.customer_email))?.status).toBe("canceled"),
    );
    // The creation event again, after the end: it is a redelivery (already applied) and changes nothing.
    await control(t.emulator).redeliver(events[0]!.id);
    await control(t.emulator)
      .renew(membership.stripe_subscription_id, "paid")
      .catch(() => {});
    expect((await membershipOf(membership.customer_email))?.status).toBe("canceled");
    expect(await ordersOf(membership.id)).toHaveLength(1);

    // A read made before the stored one (an event handled slowly, say) arrives last: it changes nothing.
    const current = (await membershipOf(membership.customer_email))!;
    const stale = await readSubscription(
      { stripe: t.stripe, now: () => new Date(current.synced_at.getTime() - 60_000) },
      seller.account,
      membership.stripe_subscription_id,
    );
    stale.subscription.status = "active";
    await t.db.transaction().execute((trx) => syncMembership(trx, stale));
    expect((await membershipOf(membership.customer_email))?.status).toBe("canceled");
  });

  it("refuses deleting a membership product while it has members", async () => {
    const product = await membershipProduct([{ name: "Fan", monthlyPrice: "9" }]);
    await becomeMember(product.id, product.tiers[0]!.id);
    const refused = await t.request({
      method: "DELETE",
      url: `/api/products/${product.id}`,
      cookie: seller.cookie,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(MEMBERSHIP_MESSAGES.hasActiveMembers);
  });

  it("shows in the library with its tier's files only, 3 downloads per file per period, until access ends", async () => {
    const files = [
      { uploadId: await upload(t, seller.cookie, "product-file", "basics.pdf", minimalPdf(411)) },
      { uploadId: await upload(t, seller.cookie, "product-file", "extras.pdf", minimalPdf(412)) },
    ];
    const created = await t.request({
      method: "POST",
      url: "/api/products",
      cookie: seller.cookie,
      body: {
        kind: "membership",
        title: "The Library Club",
        files,
        tiers: [
          { name: "Fan", monthlyPrice: "5", files: [{ uploadId: files[0]!.uploadId }] },
          { name: "Patron", monthlyPrice: "15", files: files.map(({ uploadId }) => ({ uploadId })) },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const product = created.json();
    const membership = await becomeMember(product.id, product.tiers[0].id);
    await eventually(async () => expect(await ordersOf(membership.id)).toHaveLength(1));
    const token = await libraryTokenOf(membership.customer_email);

    const library = await libraryOf(token);
    // A membership's periods are not listed as purchases of their own.
    expect(library.purchases).toEqual([]);
    expect(library.memberships).toHaveLength(1);
    const [entry] = library.memberships;
    expect(entry).toMatchObject({
      productTitle: "The Library Club",
      tierName: "Fan",
      status: "active",
      statusLabel: "Active",
      interval: "month",
      amountCents: 500,
      hasAccess: true,
    });
    expect(entry.period.files.map((file: { name: string }) => file.name)).toEqual(["basics.pdf"]);
    const downloadToken = entry.period.downloadPath.split("/").pop();
    const fileId = entry.period.files[0].id;
    for (let i = 0; i < 3; i++) {
      const started = await t.request({
        method: "POST",
        url: `/api/downloads/${downloadToken}`,
        body: { fileId },
      });
      expect(started.statusCode, started.body).toBe(200);
    }
    const fourth = await t.request({
      method: "POST",
      url: `/api/downloads/${downloadToken}`,
      body: { fileId },
    });
    expect(fourth.statusCode).not.toBe(200);
    // The file of the other tier is not this member's.
    const detail = (
      await t.request({ method: "GET", url: `/api/products/${product.id}`, cookie: seller.cookie })
    ).json();
    const otherFile = await t.request({
      method: "POST",
      url: `/api/downloads/${downloadToken}`,
      body: { fileId: detail.files[1].id },
    });
    expect(otherFile.statusCode).not.toBe(200);

    // A new period: the downloads count afresh.
    await control(t.emulator).renew(membership.stripe_subscription_id, "paid");
    await eventually(async () => expect(await ordersOf(membership.id)).toHaveLength(2));
    const renewed = (await libraryOf(token)).memberships[0];
    expect(renewed.period.files[0].downloadsRemaining).toBe(3);

    // The end: no files, and the library says why.
    await t.stripe.subscriptions.cancel(
      membership.stripe_subscription_id,
      {},
      { stripeAccount: seller.account },
    );
    await eventually(async () => expect((await libraryOf(token)).memberships[0].status).toBe("ended"));
    const ended = (await libraryOf(token)).memberships[0];
    expect(ended.hasAccess).toBe(false);
    expect(ended.period.downloadPath).toBeNull();
    expect(ended.period.unavailableReason).toBe(MEMBERSHIP_MESSAGES.noAccess);
    const afterEnd = await t.request({
      method: "POST",
      url: `/api/downloads/${renewed.period.downloadPath.split("/").pop()}`,
      body: { fileId },
    });
    expect(afterEnd.statusCode).not.toBe(200);
  });

  it("opens Stripe's billing portal on the seller's account for the library link's holder only", async () => {
    const product = await membershipProduct([{ name: "Fan", monthlyPrice: "4" }]);
    const membership = await becomeMember(product.id, product.tiers[0]!.id);
    const token = await libraryTokenOf(membership.customer_email);
    const portal = await t.request({
      method: "POST",
      url: `/api/library/memberships/${membership.id}/portal`,
      body: { token },
    });
    expect(portal.statusCode, portal.body).toBe(200);
    expect(portal.json().url).toContain(t.emulator.url);

    const other = await becomeMember(product.id, product.tiers[0]!.id);
    const otherToken = await libraryTokenOf(other.customer_email);
    const refused = await t.request({
      method: "POST",
      url: `/api/library/memberships/${membership.id}/portal`,
      body: { token: otherToken },
    });
    expect(refused.statusCode).toBe(404);
    const forged = await t.request({
      method: "POST",
      url: `/api/library/memberships/${membership.id}/portal`,
      body: { token: `${token}x` },
    });
    expect(forged.statusCode).toBe(400);
  });

  it("subscribes from the product page's form without JavaScript, and answers a refusal with the page", async () => {
    const product = await membershipProduct([{ name: "Fan", monthlyPrice: "3", yearlyPrice: "30" }]);
    const form = (fields: Record<string, string>) =>
      t.request({
        method: "POST",
        url: `/product/${product.id}/subscribe`,
        body: new URLSearchParams(fields).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
      });
    const yearly = await form({ tierId: product.tiers[0]!.id, interval: "year" });
    expect(yearly.statusCode).toBe(303);
    const session = await t.stripe.checkout.sessions.retrieve(
      sessionIdOf(String(yearly.headers.location)),
      { expand: ["line_items"] },
      { stripeAccount: seller.account },
    );
    expect(session.mode).toBe("subscription");
    expect(session.line_items?.data[0]?.price?.unit_amount).toBe(3000);
    expect(session.line_items?.data[0]?.price?.recurring?.interval).toBe("year");

    const refused = await form({ tierId: "tier_gone", interval: "month" });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers["content-type"]).toContain("text/html");
    expect(refused.body).toContain(MEMBERSHIP_MESSAGES.tierNotOffered);
  });

  it("refunds the latest payment: access stays unless the seller ends it, until the next payment", async () => {
    const product = await membershipProduct([{ name: "Fan", monthlyPrice: "11" }]);
    const membership = await becomeMember(product.id, product.tiers[0]!.id);
    await eventually(async () => expect(await ordersOf(membership.id)).toHaveLength(1));
    expect((await ordersOf(membership.id))[0]!.payment_intent_id).toMatch(/^pi_/);
    const refund = (endAccess: boolean) =>
      t.request({
        method: "POST",
        url: `/api/memberships/${membership.id}/refund-last-payment`,
        cookie: seller.cookie,
        body: { endAccess },
      });
    const kept = await refund(false);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({ hasAccess: true, lifetimeSpendCents: 0 });
    expect((await ordersOf(membership.id))[0]!.status).toBe("refunded");
    const nothing = await refund(true);
    expect(nothing.statusCode).toBe(409);

    await control(t.emulator).renew(membership.stripe_subscription_id, "paid");
    await eventually(async () => expect(await ordersOf(membership.id)).toHaveLength(2));
    const ended = await refund(true);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({ hasAccess: false, status: "active" });
    // The next payment gives access back.
    await control(t.emulator).renew(membership.stripe_subscription_id, "paid");
    await eventually(async () => expect(await ordersOf(membership.id)).toHaveLength(3));
    expect(hasMembershipAccess((await membershipOf(membership.customer_email))!, t.clock.now())).toBe(true);
  });
  it("switches tier from the library: the proration Stripe computes is shown, then billed as shown", async () => {
    const product = await membershipProduct([
      { name: "Fan", monthlyPrice: "5", yearlyPrice: "50" },
      { name: "Patron", monthlyPrice: "15" },
    ]);
    const membership = await becomeMember(product.id, product.tiers[0]!.id);
    await eventually(async () => expect(await ordersOf(membership.id)).toHaveLength(1));
    const token = await libraryTokenOf(membership.customer_email);
    const change = (path: string, body: Record<string, unknown>) =>
      t.request({
        method: "POST",
        url: `/api/library/memberships/${membership.id}/${path}`,
        body: { token, ...body },
      });

    const preview = await change("change-preview", { tierId: product.tiers[1]!.id, interval: "month" });
    expect(preview.statusCode, preview.body).toBe(200);
    const shown = preview.json();
    expect(shown).toMatchObject({ tierName: "Patron", interval: "month", amountCents: 1500, creditCents: 0 });
    // Almost the whole month is left: about $15 for it, less about $5 unused of Fan.
    expect(shown.amountDueCents).toBeGreaterThan(990);
    expect(shown.amountDueCents).toBeLessThanOrEqual(1000);
    expect(shown.lines.length).toBeGreaterThanOrEqual(2);

    expect(
      (await change("change-preview", { tierId: product.tiers[0]!.id, interval: "month" })).json().message,
    ).toBe(MEMBERSHIP_CHANGE_MESSAGES.sameChoice);
    const stranger = await t.request({
      method: "POST",
      url: `/api/library/memberships/${membership.id}/change-preview`,
      body: {
        token: await libraryTokenOf((await becomeMember(product.id, product.tiers[0]!.id)).customer_email),
        tierId: product.tiers[1]!.id,
        interval: "month",
      },
    });
    expect(stranger.statusCode).toBe(404);

    const confirmed = await change("change", {
      tierId: product.tiers[1]!.id,
      interval: "month",
      prorationDate: shown.prorationDate,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(204);
    const switched = (await membershipOf(membership.customer_email))!;
    expect(switched).toMatchObject({
      tier_id: product.tiers[1]!.id,
      tier_name: "Patron",
      amount_cents: 1500,
    });
    // The difference was charged at once, as shown: an order of its own.
    await eventually(async () => expect(await ordersOf(membership.id)).toHaveLength(2));
    expect((await ordersOf(membership.id))[1]!.amount_cents).toBe(shown.amountDueCents);
    // A switch's prorated charge is no renewal.
    const figures = await membershipMetrics(t.db, seller.userId, {
      from: null,
      to: new Date(t.clock.now().getTime() + DAY_MS),
      productId: product.id,
    });
    expect(figures.renewalRevenueCents).toBe(0);
  });

  it("reminds a yearly member once, 7 days before the renewal; never a monthly one", async () => {
    const product = await membershipProduct([{ name: "Fan", monthlyPrice: "5", yearlyPrice: "48" }]);
    const yearly = await becomeMember(product.id, product.tiers[0]!.id, "year");
    const monthly = await becomeMember(product.id, product.tiers[0]!.id, "month");
    const deps = { outbox: t.outbox, appUrl: "http://localhost:3000", linkKey: "k", db: t.db };
    const reminders = async (email: string) =>
      (await subjectsTo(email)).filter((subject) => subject.startsWith("Your membership renews soon"));
    const eightDaysBefore = new Date(yearly.current_period_end.getTime() - 8 * DAY_MS);
    await sendYearlyReminders(deps, eightDaysBefore);
    expect(await reminders(yearly.customer_email)).toEqual([]);
    const sixDaysBefore = new Date(yearly.current_period_end.getTime() - 6 * DAY_MS);
    await sendYearlyReminders(deps, sixDaysBefore);
    await sendYearlyReminders(deps, new Date(sixDaysBefore.getTime() + DAY_MS));
    expect(await reminders(yearly.customer_email)).toEqual(["Your membership renews soon: The Club"]);
    const monthlyBefore = new Date(monthly.current_period_end.getTime() - 6 * DAY_MS);
    await sendYearlyReminders(deps, monthlyBefore);
    expect(await reminders(monthly.customer_email)).toEqual([]);
  });

  it("takes a discount code off the first payment only, or off every payment, as the code says", async () => {
    const product = await membershipProduct([{ name: "Fan", monthlyPrice: "10" }]);
    const makeCode = async (code: string, membershipDuration: "once" | "forever", maxUses = "") => {
      const created = await t.request({
        method: "POST",
        url: "/api/discount-codes",
        cookie: seller.cookie,
        body: { code, kind: "percent", value: "20", appliesTo: "all", maxUses, membershipDuration },
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json();
    };
    const once = await makeCode(`ONCE${Date.now()}`.slice(0, 20), "once");
    const always = await makeCode(`EVER${Date.now()}`.slice(0, 20), "forever", "1");
    const member = async (code: string) => {
      const email = newEmail();
      const response = await t.request({
        method: "POST",
        url: "/api/checkout/subscribe",
        body: { productId: product.id, tierId: product.tiers[0]!.id, code },
      });
      expect(response.statusCode, response.body).toBe(200);
      await control(t.emulator).payCheckout(sessionIdOf(response.json().url), "4242424242424242", email);
      await eventually(async () => expect((await membershipOf(email))?.status).toBe("active"));
      const membership = (await membershipOf(email))!;
      await eventually(async () => expect(await ordersOf(membership.id)).toHaveLength(1));
      await control(t.emulator).renew(membership.stripe_subscription_id, "paid");
      await eventually(async () => expect(await ordersOf(membership.id)).toHaveLength(2));
      return (await ordersOf(membership.id)).map((order) => order.amount_cents);
    };
    expect(await member(once.code)).toEqual([800, 1000]);
    expect(await member(always.code)).toEqual([800, 800]);
    // Its one use is taken: the next buyer is refused with the reason, and nothing is made.
    const usedUp = await t.request({
      method: "POST",
      url: "/api/checkout/subscribe",
      body: { productId: product.id, tierId: product.tiers[0]!.id, code: always.code },
    });
    expect(usedUp.statusCode).toBe(422);
    expect(usedUp.json().message).toBe(DISCOUNT_REFUSAL_MESSAGES.used_up);
    const unknown = await t.request({
      method: "POST",
      url: "/api/checkout/subscribe",
      body: { productId: product.id, tierId: product.tiers[0]!.id, code: "NOPE" },
    });
    expect(unknown.json().message).toBe(DISCOUNT_REFUSAL_MESSAGES.unknown);
    const codes = (
      await t.request({ method: "GET", url: "/api/discount-codes", cookie: seller.cookie })
    ).json();
    expect(codes.codes.find((code: { id: string }) => code.id === always.id)).toMatchObject({
      uses: 1,
      usesHeld: 0,
    });
  });

  it("ends access when a member disputes a payment", async () => {
    const product = await membershipProduct([{ name: "Fan", monthlyPrice: "12" }]);
    const membership = await becomeMember(product.id, product.tiers[0]!.id);
    await eventually(async () => expect(await ordersOf(membership.id)).toHaveLength(1));
    const [order] = await ordersOf(membership.id);
    const intent = await t.stripe.paymentIntents.retrieve(
      order!.payment_intent_id!,
      {},
      { stripeAccount: seller.account },
    );
    const charge = typeof intent.latest_charge === "string" ? intent.latest_charge : intent.latest_charge!.id;
    await control(t.emulator).dispute(charge);
    await eventually(async () =>
      expect((await membershipOf(membership.customer_email))?.access_revoked_at).not.toBeNull(),
    );
    expect(hasMembershipAccess((await membershipOf(membership.customer_email))!, t.clock.now())).toBe(false);
  });

  it("a trial: access and the trial's files at once, no charge, then the first payment when it ends", async () => {
    const product = await membershipProduct([{ name: "Trial", monthlyPrice: "9", trialDays: 7 }]);
    const email = newEmail();
    const response = await subscribe(product.id, product.tiers[0]!.id);
    await control(t.emulator).payCheckout(sessionIdOf(response.json().url), "4242424242424242", email);
    await eventually(async () => expect((await membershipOf(email))?.status).toBe("trialing"));
    const trialing = (await membershipOf(email))!;
    expect(trialing.trial_end!.getTime() - trialing.started_at.getTime()).toBe(7 * DAY_MS);
    expect(hasMembershipAccess(trialing, t.clock.now())).toBe(true);
    await eventually(async () => expect(await ordersOf(trialing.id)).toHaveLength(1));
    expect((await ordersOf(trialing.id))[0]!.amount_cents).toBe(0);
    expect(await subjectsTo(email)).toEqual(["Welcome to The Club"]);

    // The trial ends (both clocks move; last in this file, as the emulator's clock never goes back):
    // the first period is charged, the member is active.
    t.clock.advance(7 * DAY_MS + 60_000);
    await control(t.emulator).advanceClock(7 * 24 * 3600 + 60);
    await eventually(async () => expect((await membershipOf(email))?.status).toBe("active"));
    await eventually(async () => expect(await ordersOf(trialing.id)).toHaveLength(2));
    expect((await ordersOf(trialing.id))[1]!.amount_cents).toBe(900);
  });
});
