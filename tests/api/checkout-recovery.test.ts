import { sql } from "kysely";
import type Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RECOVERY_RULES } from "../../src/contracts/checkout-recovery";
import { control } from "./support/emulator-control";
import { createProduct, readySeller } from "./support/sellers";
import { createTestApp, type TestApp, uniqueEmail } from "./support/test-app";
import { eventually } from "./support/wait";

// Checkout recovery (docs/checkout-recovery.md): one email an hour after a checkout expired unpaid, to a
// buyer who agreed on Checkout to hear from the store; every limit and refusal, the link, the revenue.
let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  t = await createTestApp({ listen: true, jobsInBackground: false });
  seller = await readySeller(t);
});
afterAll(async () => {
  await t.close();
});
afterEach(() => t.clock.reset());

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;

async function startCheckout(productId: string, headers: Record<string, string> = {}) {
  const response = await t.request({ method: "POST", url: "/api/checkout", body: { productId }, headers });
  expect(response.statusCode, response.body).toBe(200);
  return sessionIdOf(response.json().url);
}

const retrieve = (sessionId: string) =>
  t.stripe.checkout.sessions.retrieve(sessionId, {}, { stripeAccount: seller.account });

/** What the hosted page saves as the buyer types their email and ticks (or not) the promotions box. */
async function typeOnCheckout(sessionId: string, email: string, promotions: boolean) {
  const response = await fetch(`${t.emulator.url}/_emulator/checkout/sessions/${sessionId}/consent`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, promotions }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

const checkoutIdOf = async (sessionId: string) =>
  (
    await t.db
      .selectFrom("checkouts")
      .select(["id", "state"])
      .where("stripe_session_id", "=", sessionId)
      .executeTakeFirstOrThrow()
  ).id;

/** Expires the session on Stripe and waits for the app to have heard (the checkout ended). */
async function leave(sessionId: string) {
  await control(t.emulator).expireCheckout(sessionId);
  await eventually(async () => {
    const checkout = await t.db
      .selectFrom("checkouts")
      .select("state")
      .where("stripe_session_id", "=", sessionId)
      .executeTakeFirstOrThrow();
    expect(checkout.state).toBe("expired");
  });
  return checkoutIdOf(sessionId);
}

/** A buyer who starts a checkout, agrees (or not) to hear from the store, and leaves. */
async function abandon(
  productId: string,
  email: string,
  promotions = true,
  headers: Record<string, string> = {},
) {
  const sessionId = await startCheckout(productId, headers);
  await typeOnCheckout(sessionId, email, promotions);
  return { sessionId, checkoutId: await leave(sessionId) };
}

const recoveryOf = (checkoutId: string) =>
  t.db.selectFrom("checkout_recoveries").selectAll().where("checkout_id", "=", checkoutId).executeTakeFirst();
const recoveryEmailsTo = (to: string) =>
  t.db
    .selectFrom("outbox_emails")
    .selectAll()
    .where("to_address", "=", to)
    .where("text", "like", "%/recover/%")
    .orderBy("id")
    .execute();

/** Moves the app's clock past the email's hour and runs what is due. */
async function anHourLater() {
  t.clock.advance(RECOVERY_RULES.delayMs + 60_000);
  await t.app.jobs.runDue();
}

const recoverLinkOf = (text: string) => {
  const match = text.match(/http:\/\/localhost:3000(\/recover\/[^\s?]+)\?lang=([\w-]+)/);
  expect(match, text).not.toBeNull();
  return { path: match![1]!, lang: match![2]! };
};

describe("asking on Checkout", () => {
  it("Buy Now asks for promotions consent while the store sends recovery emails, and not once it stops", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const on = await retrieve(await startCheckout(product.id));
    expect(on.consent_collection?.promotions).toBe("auto");

    const off = await t.request({
      method: "PUT",
      url: "/api/checkout-recovery/settings",
      cookie: seller.cookie,
      body: { enabled: false },
    });
    expect(off.json()).toEqual({ enabled: false });
    const without = await retrieve(await startCheckout(product.id));
    expect(without.consent_collection?.promotions ?? null).toBeNull();
    await t.request({
      method: "PUT",
      url: "/api/checkout-recovery/settings",
      cookie: seller.cookie,
      body: { enabled: true },
    });
    expect(
      (
        await t.request({ method: "GET", url: "/api/checkout-recovery/settings", cookie: seller.cookie })
      ).json(),
    ).toEqual({ enabled: true });
  });

  it("the setting is the seller's own: signed out is 401", async () => {
    expect((await t.request({ method: "GET", url: "/api/checkout-recovery/settings" })).statusCode).toBe(401);
  });
});

describe("the recovery email", () => {
  it("goes once, an hour after the session expired, in the buyer's language, with a link and an unsubscribe link", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { title: "Field Recordings Vol. 2" },
      { cover: false },
    );
    const email = uniqueEmail("buyer");
    const { checkoutId } = await abandon(product.id, email, true, { "accept-language": "de-DE,de;q=0.9" });
    const scheduled = await recoveryOf(checkoutId);
    expect(scheduled).toMatchObject({ status: "scheduled", email, buyer_locale: "de", amount_cents: 1999 });
    expect(scheduled!.send_at.getTime() - scheduled!.expired_at.getTime()).toBe(RECOVERY_RULES.delayMs);

    // Not before the hour.
    t.clock.advance(RECOVERY_RULES.delayMs - 60_000);
    await t.app.jobs.runDue();
    expect(await recoveryEmailsTo(email)).toHaveLength(0);
    t.clock.advance(2 * 60_000);
    await t.app.jobs.runDue();

    const [sent, ...more] = await recoveryEmailsTo(email);
    expect(more).toHaveLength(0);
    expect(sent!.subject).toBe("Sie haben Field Recordings Vol. 2 im Bezahlvorgang zurückgelassen");
    expect(sent!.html).toContain('<html lang="de"');
    expect(sent!.text).toContain("19,99");
    expect(sent!.text).toContain("Kauf abschließen");
    const headers = sent!.headers as unknown as Record<string, string>;
    expect(headers["List-Unsubscribe"]).toMatch(/^<http:\/\/localhost:3000\/unsubscribe\/.+>$/);
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(sent!.text).toContain((headers["List-Unsubscribe"] ?? "").slice(1, -1));
    expect(recoverLinkOf(sent!.text).lang).toBe("de");
    expect(await recoveryOf(checkoutId)).toMatchObject({ status: "sent" });
  });

  it("no consent, no email: a box left unticked, or nothing typed, schedules nothing", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const email = uniqueEmail("declined");
    const declined = await abandon(product.id, email, false);
    expect((await retrieve(declined.sessionId)).consent?.promotions).toBe("opt_out");
    const silent = await leave(await startCheckout(product.id));
    await anHourLater();
    expect(await recoveryOf(declined.checkoutId)).toBeUndefined();
    expect(await recoveryOf(silent)).toBeUndefined();
    expect(await recoveryEmailsTo(email)).toHaveLength(0);
  });

  it("the same expiry event twice makes one job and one email", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const email = uniqueEmail("twice");
    const { sessionId, checkoutId } = await abandon(product.id, email);
    const expired = (await control(t.emulator).events()).find(
      (event) =>
        event.type === "checkout.session.expired" &&
        (event.data.object as Stripe.Checkout.Session).id === sessionId,
    )!;
    await control(t.emulator).redeliver(expired.id);
    await control(t.emulator).redeliver(expired.id);
    await eventually(async () => expect(await control(t.emulator).pendingEvents()).toBe(0));
    const jobs = await t.db
      .selectFrom("jobs")
      .select("id")
      .where("unique_key", "=", `checkout-recovery:${checkoutId}`)
      .execute();
    expect(jobs).toHaveLength(1);
    await anHourLater();
    await t.app.jobs.runDue();
    expect(await recoveryEmailsTo(email)).toHaveLength(1);
  });

  it("at most one per buyer email and product a week: a second expiry within the week sends nothing, after it one more", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const other = await createProduct(t, seller.cookie, { title: "Another one" }, { cover: false });
    const email = uniqueEmail("weekly");
    const first = await abandon(product.id, email);
    await anHourLater();
    expect(await recoveryEmailsTo(email)).toHaveLength(1);

    // The same buyer (another case of the address), the same product, the same week: skipped.
    const second = await abandon(product.id, email.toUpperCase());
    // Another product of the store is another reminder.
    const elsewhere = await abandon(other.id, email);
    await anHourLater();
    expect(await recoveryOf(second.checkoutId)).toMatchObject({
      status: "skipped",
      skip_reason: "sent_this_week",
    });
    expect(await recoveryOf(elsewhere.checkoutId)).toMatchObject({ status: "sent" });
    expect(await recoveryEmailsTo(email)).toHaveLength(2);

    // Eight days after the first email, the buyer leaves again: one more.
    await t.db
      .updateTable("checkout_recoveries")
      .set({ sent_at: sql`sent_at - interval '8 days'` })
      .where("checkout_id", "=", first.checkoutId)
      .execute();
    const third = await abandon(product.id, email);
    await anHourLater();
    expect(await recoveryOf(third.checkoutId)).toMatchObject({ status: "sent" });
    expect(await recoveryEmailsTo(email)).toHaveLength(3);
  });

  it("none when the buyer bought the product meanwhile", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const email = uniqueEmail("bought");
    const { checkoutId } = await abandon(product.id, email);
    const paid = await startCheckout(product.id);
    await control(t.emulator).payCheckout(paid, "4242424242424242", email);
    await eventually(async () =>
      expect(
        await t.db.selectFrom("orders").select("id").where("stripe_session_id", "=", paid).executeTakeFirst(),
      ).toBeDefined(),
    );
    await anHourLater();
    expect(await recoveryOf(checkoutId)).toMatchObject({ status: "skipped", skip_reason: "bought" });
    expect(await recoveryEmailsTo(email)).toHaveLength(0);
  });

  it("none when the buyer unsubscribed from the store's emails", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const email = uniqueEmail("unsubscribed");
    await t.db.insertInto("email_unsubscribes").values({ seller_id: seller.userId, email }).execute();
    const { checkoutId } = await abandon(product.id, email);
    await anHourLater();
    expect(await recoveryOf(checkoutId)).toMatchObject({ status: "skipped", skip_reason: "unsubscribed" });
    expect(await recoveryEmailsTo(email)).toHaveLength(0);
  });

  it("none when the product was unpublished or deleted meanwhile", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const email = uniqueEmail("gone");
    const { checkoutId } = await abandon(product.id, email);
    await t.db.updateTable("products").set({ is_active: false }).where("id", "=", product.id).execute();
    await anHourLater();
    expect(await recoveryOf(checkoutId)).toMatchObject({
      status: "skipped",
      skip_reason: "product_unavailable",
    });
    expect(await recoveryEmailsTo(email)).toHaveLength(0);
  });

  it("none when the seller turned recovery emails off before it was due", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const email = uniqueEmail("off");
    const { checkoutId } = await abandon(product.id, email);
    await t.request({
      method: "PUT",
      url: "/api/checkout-recovery/settings",
      cookie: seller.cookie,
      body: { enabled: false },
    });
    try {
      await anHourLater();
      expect(await recoveryOf(checkoutId)).toMatchObject({ status: "skipped", skip_reason: "turned_off" });
    } finally {
      await t.request({
        method: "PUT",
        url: "/api/checkout-recovery/settings",
        cookie: seller.cookie,
        body: { enabled: true },
      });
    }
  });
});

describe("the recovery link", () => {
  it("shows the product and price, makes a fresh checkout of the same, and the sale counts as recovered revenue", async () => {
    const product = await createProduct(t, seller.cookie, { title: "Synth Presets" }, { cover: false });
    const email = uniqueEmail("recovered");
    const before = (
      await t.request({ method: "GET", url: "/api/analytics?period=7d", cookie: seller.cookie })
    ).json();
    const { checkoutId } = await abandon(product.id, email);
    await anHourLater();
    const [sent] = await recoveryEmailsTo(email);
    const { path, lang } = recoverLinkOf(sent!.text);

    const page = await t.request({ method: "GET", url: `${path}?lang=${lang}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers["cache-control"]).toContain("no-store");
    expect(page.body).toContain("Still thinking about Synth Presets?");
    expect(page.body).toContain("$19.99");
    // Opening the link holds nothing and makes no checkout (mail scanners open links).
    const checkouts = () =>
      t.db.selectFrom("checkouts").select("id").where("recovered_from", "=", checkoutId).execute();
    expect(await checkouts()).toHaveLength(0);

    const continued = await t.request({
      method: "POST",
      url: path,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(continued.statusCode, continued.body).toBe(303);
    const sessionId = sessionIdOf(continued.headers.location as string);
    const session = await retrieve(sessionId);
    expect(session).toMatchObject({ status: "open", amount_total: 1999, currency: "usd" });
    expect(session.metadata?.product_id).toBe(product.id);
    expect(await checkouts()).toHaveLength(1);

    await control(t.emulator).payCheckout(sessionId, "4242424242424242", email);
    await eventually(async () => {
      const stats = (
        await t.request({ method: "GET", url: "/api/analytics?period=7d", cookie: seller.cookie })
      ).json();
      expect(stats.recovered.revenueCents - before.recovered.revenueCents).toBe(1999);
      expect(stats.recovered.units - before.recovered.units).toBe(1);
    });
    const stats = (
      await t.request({ method: "GET", url: "/api/analytics?period=7d", cookie: seller.cookie })
    ).json();
    expect(stats.totals.revenueCents).toBeGreaterThanOrEqual(stats.recovered.revenueCents);

    // A refund takes it back out of the recovered figure too.
    const order = await t.db
      .selectFrom("orders")
      .select("id")
      .where("stripe_session_id", "=", sessionId)
      .executeTakeFirstOrThrow();
    const refund = await t.request({
      method: "POST",
      url: `/api/orders/${order.id}/refund`,
      cookie: seller.cookie,
    });
    expect(refund.statusCode, refund.body).toBe(204);
    const after = (
      await t.request({ method: "GET", url: "/api/analytics?period=7d", cookie: seller.cookie })
    ).json();
    expect(after.recovered.revenueCents).toBe(before.recovered.revenueCents);
  });

  it("a tampered link is refused, an old one has expired, and a product no longer for sale says so", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const email = uniqueEmail("links");
    await abandon(product.id, email);
    await anHourLater();
    const [sent] = await recoveryEmailsTo(email);
    const { path } = recoverLinkOf(sent!.text);

    const tampered = await t.request({ method: "GET", url: `${path.slice(0, -2)}xx` });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.body).toContain("This link is not valid");
    expect((await t.request({ method: "POST", url: `${path.slice(0, -2)}xx` })).statusCode).toBe(400);

    await t.db.updateTable("products").set({ is_active: false }).where("id", "=", product.id).execute();
    const unavailable = await t.request({ method: "GET", url: path });
    expect(unavailable.statusCode).toBe(410);
    expect(unavailable.body).toContain("This product is no longer available.");
    await t.db.updateTable("products").set({ is_active: true }).where("id", "=", product.id).execute();

    t.clock.advance(RECOVERY_RULES.linkValidMs + DAY_MS);
    const old = await t.request({ method: "GET", url: path });
    expect(old.statusCode).toBe(410);
    expect(old.body).toContain("This link has expired.");
    const refused = await t.request({ method: "POST", url: path });
    expect(refused.statusCode).toBe(410);
  });
});
