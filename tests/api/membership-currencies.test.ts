import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENCY_MESSAGES } from "../../src/contracts/currencies";
import { MEMBERSHIP_MESSAGES } from "../../src/contracts/memberships";
import { formatMoney } from "../../src/contracts/money";
import { minimalPdf } from "../../src/server/features/uploads/test-fixtures";
import { presentmentAmount } from "../../src/stripe-emulator/currencies";
import { control } from "./support/emulator-control";
import { readySeller, upload } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

// Membership tiers with fixed prices in other currencies (docs/money.md, docs/memberships.md): saved with
// the tier list, shown to a buyer in their currency, subscribed to in it (a Stripe price of its own), each
// period's order in it with its settlement in the store currency, and a member's switch kept in it. The
// emulator converts at its fixed rates (1 USD = 0.92 EUR).
let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  seller = await readySeller(t);
});
afterAll(async () => {
  await t.close();
});

const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const nbsp = (text: string) => text.replace(/\u00a0/g, " ");

/** Fan: $5 a month, $50 a year, €4.50 and €45; Patron: $15 a month, in dollars only. */
const TIERS = [
  {
    name: "Fan",
    monthlyPrice: "5",
    yearlyPrice: "50",
    prices: [{ currency: "eur", monthly: "4.50", yearly: "45" }],
  },
  { name: "Patron", monthlyPrice: "15" },
];

type Product = {
  id: string;
  tiers: { id: string; name: string; currency: string; prices: unknown[] }[];
};

async function membershipProduct(owner = seller, tiers: unknown[] = TIERS): Promise<Product> {
  const files = [{ uploadId: await upload(t, owner.cookie, "product-file", "lesson.pdf", minimalPdf(401)) }];
  const response = await t.request({
    method: "POST",
    url: "/api/products",
    cookie: owner.cookie,
    body: { kind: "membership", title: "The Club", files, tiers },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const subscribe = (productId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.request({ method: "POST", url: "/api/checkout/subscribe", headers, body: { productId, ...body } });

const storedPrices = (tierId: string) =>
  t.db
    .selectFrom("membership_tier_currency_prices")
    .select(["currency", "monthly_cents", "yearly_cents", "seller_id"])
    .where("tier_id", "=", tierId)
    .execute();

describe("a tier's prices in other currencies", () => {
  let product: Product;
  let memberEmail = "";
  beforeAll(async () => {
    product = await membershipProduct();
  });

  it("are saved with the tier list and read back with it", async () => {
    const [fan, patron] = product.tiers;
    expect(fan).toMatchObject({
      name: "Fan",
      currency: "usd",
      prices: [{ currency: "eur", monthlyPriceCents: 450, yearlyPriceCents: 4500 }],
    });
    expect(patron).toMatchObject({ name: "Patron", currency: "usd", prices: [] });
    expect(await storedPrices(fan!.id)).toEqual([
      { currency: "eur", monthly_cents: 450, yearly_cents: 4500, seller_id: seller.userId },
    ]);
  });

  it("refuses the store currency, an unknown currency, amounts below Stripe's minimum or with too many decimals, and a yearly price the tier has not; nothing is saved", async () => {
    const [fan, patron] = product.tiers;
    const withPrices = (fanPrices: unknown[], patronPrices: unknown[] = []) => [
      { ...TIERS[0], id: fan!.id, prices: fanPrices },
      { ...TIERS[1], id: patron!.id, prices: patronPrices },
    ];
    for (const [tiers, message] of [
      [withPrices([{ currency: "usd", monthly: "5", yearly: "50" }]), CURRENCY_MESSAGES.sameAsStore("usd")],
      [withPrices([{ currency: "xyz", monthly: "5", yearly: "50" }]), CURRENCY_MESSAGES.notOffered("xyz")],
      [withPrices([{ currency: "eur", monthly: "0.40", yearly: "45" }]), "Prices in EUR start at €0.50."],
      [
        withPrices([{ currency: "eur", monthly: "4.505", yearly: "45" }]),
        "Enter an amount in EUR with at most 2 decimals, like 18.00",
      ],
      [
        withPrices([], [{ currency: "eur", monthly: "14", yearly: "140" }]),
        MEMBERSHIP_MESSAGES.otherYearlyWithoutYearly("eur"),
      ],
      [withPrices([{ currency: "eur", monthly: "4.50" }]), MEMBERSHIP_MESSAGES.otherYearlyMissing("eur")],
    ] as const) {
      const response = await t.request({
        method: "PATCH",
        url: `/api/products/${product.id}`,
        cookie: seller.cookie,
        body: { tiers },
      });
      expect(response.statusCode, JSON.stringify(tiers)).toBe(400);
      expect(response.json()).toMatchObject({
        code: "validation_error",
        message,
        details: { field: "tiers" },
      });
    }
    expect(await storedPrices(fan!.id)).toEqual([
      { currency: "eur", monthly_cents: 450, yearly_cents: 4500, seller_id: seller.userId },
    ]);
    expect(await storedPrices(patron!.id)).toEqual([]);
  });

  it("show to a German buyer in euros where the tier has a price in them, in dollars where not", async () => {
    const german = await t.request({
      method: "GET",
      url: `/product/${product.id}`,
      headers: { "accept-language": "de-DE,de;q=0.9" },
    });
    expect(german.statusCode).toBe(200);
    const page = nbsp(german.body);
    expect(page).toContain("4,50 €");
    expect(page).toContain("45,00 €");
    expect(page).toContain("15,00 $");
    expect(page).not.toMatch(/[^1]5,00 \$/);
    // Each Subscribe form posts the currency its price was shown in; the switcher lists both.
    expect(page).toContain('name="currency" value="eur"');
    expect(page).toContain('name="currency" value="usd"');
    expect(page).toMatch(/href="\/product\/[^"]+\?currency=usd"/);

    const american = await t.request({
      method: "GET",
      url: `/product/${product.id}`,
      headers: { "accept-language": "en-US" },
    });
    expect(american.body).toContain("$5.00");
    expect(american.body).not.toContain("€4.50");
    expect(american.body).toMatch(/href="\/product\/[^"]+\?currency=eur"/);
  });

  it("is what a German buyer subscribes at: Checkout and the subscription in euros, each period's order in euros settled in dollars", async () => {
    const [fan] = product.tiers;
    const response = await subscribe(
      product.id,
      { tierId: fan!.id, interval: "month", currency: "eur" },
      { "accept-language": "de-DE" },
    );
    expect(response.statusCode, response.body).toBe(200);
    const sessionId = sessionIdOf(response.json().url);
    const session = await t.stripe.checkout.sessions.retrieve(
      sessionId,
      { expand: ["line_items"] },
      { stripeAccount: seller.account },
    );
    expect(session).toMatchObject({ mode: "subscription", currency: "eur", amount_total: 450 });
    expect(session.line_items?.data[0]?.price).toMatchObject({
      currency: "eur",
      unit_amount: 450,
      recurring: expect.objectContaining({ interval: "month" }),
    });
    const checkout = await t.db
      .selectFrom("checkouts")
      .select("currency")
      .where("stripe_session_id", "=", sessionId)
      .executeTakeFirstOrThrow();
    expect(checkout.currency).toBe("eur");

    memberEmail = `berlin-${Date.now()}@example.com`;
    await control(t.emulator).payCheckout(sessionId, "4242424242424242", memberEmail);
    const membershipRow = () =>
      t.db.selectFrom("memberships").selectAll().where("customer_email", "=", memberEmail).executeTakeFirst();
    await eventually(async () => expect((await membershipRow())?.status).toBe("active"));
    const membership = (await membershipRow())!;
    expect(membership).toMatchObject({ currency: "eur", amount_cents: 450, tier_id: fan!.id });
    const subscription = await t.stripe.subscriptions.retrieve(
      membership.stripe_subscription_id,
      {},
      { stripeAccount: seller.account },
    );
    expect(subscription.currency).toBe("eur");

    const ordersOf = () =>
      t.db
        .selectFrom("orders")
        .select(["amount_cents", "currency", "settlement_cents", "settlement_currency"])
        .where("membership_id", "=", membership.id)
        .orderBy("created_at")
        .execute();
    // 450 EUR cents at the emulator's 0.92 EUR per USD: 489 USD cents settled.
    const paid = { amount_cents: 450, currency: "eur", settlement_cents: 489, settlement_currency: "usd" };
    await eventually(async () => expect(await ordersOf()).toEqual([paid]));
    // A renewal is charged in euros too, and settles the same way.
    await control(t.emulator).renew(membership.stripe_subscription_id, "paid");
    await eventually(async () => expect(await ordersOf()).toEqual([paid, paid]));

    // Totals add up what the sales settled as, in the store currency.
    const stats = await t.request({ method: "GET", url: "/api/dashboard/stats", cookie: seller.cookie });
    expect(stats.json().totalRevenueCents).toBe(978);
    // The members page shows the member's currency.
    const members = await t.request({ method: "GET", url: "/api/memberships", cookie: seller.cookie });
    expect(members.json().members[0]).toMatchObject({
      email: memberEmail,
      amountCents: 450,
      currency: "eur",
      lifetimeSpendCents: 900,
    });
  });

  it("refuses a currency the tier has no price in", async () => {
    const [fan, patron] = product.tiers;
    const pounds = await subscribe(product.id, { tierId: fan!.id, interval: "month", currency: "gbp" });
    expect(pounds.statusCode).toBe(422);
    expect(pounds.json()).toMatchObject({
      code: "currency_not_offered",
      message: "This tier has no price in GBP.",
    });
    const patronInEuros = await subscribe(product.id, {
      tierId: patron!.id,
      interval: "month",
      currency: "eur",
    });
    expect(patronInEuros.statusCode).toBe(422);
    expect(patronInEuros.json().message).toBe(MEMBERSHIP_MESSAGES.tierNoPriceIn("eur"));
    // Without a chosen currency, a German buyer gets the tier's euros where it has them, dollars where not.
    const patronGerman = await subscribe(
      product.id,
      { tierId: patron!.id, interval: "month" },
      { "accept-language": "de-DE" },
    );
    expect(patronGerman.statusCode, patronGerman.body).toBe(200);
    const session = await t.stripe.checkout.sessions.retrieve(
      sessionIdOf(patronGerman.json().url),
      {},
      { stripeAccount: seller.account },
    );
    expect(session).toMatchObject({ currency: "usd", amount_total: 1500 });
  });

  it("keeps a member paying in euros in euros: another tier's euro price, never a tier without one", async () => {
    const [fan, patron] = product.tiers;
    // A new member (the one above renewed on Stripe's clock, ahead of the app's).
    const subscribed = await subscribe(product.id, { tierId: fan!.id, interval: "month", currency: "eur" });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    memberEmail = `munich-${Date.now()}@example.com`;
    await control(t.emulator).payCheckout(
      sessionIdOf(subscribed.json().url),
      "4242424242424242",
      memberEmail,
    );
    await eventually(async () => {
      const row = await t.db
        .selectFrom("memberships")
        .select("status")
        .where("customer_email", "=", memberEmail)
        .executeTakeFirst();
      expect(row?.status).toBe("active");
    });
    const membership = await t.db
      .selectFrom("memberships")
      .select("id")
      .where("customer_email", "=", memberEmail)
      .executeTakeFirstOrThrow();
    // The welcome email (in German: the member subscribed in it) links to their library.
    const welcome = await t.db
      .selectFrom("outbox_emails")
      .select("text")
      .where("to_address", "=", memberEmail)
      .where("text", "like", "%/library?token=%")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const token = new URL(
      welcome.text.match(/http:\/\/localhost:3000\/library\?token=\S+/)![0],
    ).searchParams.get("token")!;
    const change = (tierId: string, interval: "month" | "year") =>
      t.request({
        method: "POST",
        url: `/api/library/memberships/${membership.id}/change-preview`,
        body: { token, tierId, interval },
      });

    const refused = await change(patron!.id, "month");
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: "currency_not_offered",
      message: "This tier has no price in EUR.",
    });
    const yearly = await change(fan!.id, "year");
    expect(yearly.statusCode, yearly.body).toBe(200);
    expect(yearly.json()).toMatchObject({ tierName: "Fan", interval: "year", amountCents: 4500 });

    // The library offers only the tiers priced in the member's currency, at those prices.
    const library = await t.request({
      method: "GET",
      url: `/api/library?token=${encodeURIComponent(token)}`,
    });
    expect(library.json().memberships[0].switchableTiers).toEqual([
      { id: fan!.id, name: "Fan", monthlyPriceCents: 450, yearlyPriceCents: 4500 },
    ]);
  });
});

// Adaptive Pricing on memberships (docs/money.md, docs/memberships.md): with the seller's switch on, a
// buyer whose currency a tier has no price in subscribes in the store currency and pays in their own.
// The membership stays in dollars; each period's order records the euros paid and the dollars settled.
describe("Adaptive Pricing on memberships", () => {
  let owner: Awaited<ReturnType<typeof readySeller>>;
  let product: Product;
  /** Supporter: $5 a month, Patron: $15 a month, in dollars only; Fan: $5 or a fixed €4.50. */
  const ADAPTIVE_TIERS = [
    { name: "Supporter", monthlyPrice: "5" },
    { name: "Patron", monthlyPrice: "15" },
    { name: "Fan", monthlyPrice: "5", prices: [{ currency: "eur", monthly: "4.50" }] },
  ];
  const german = { "accept-language": "de-DE,de;q=0.9" };
  const tierId = (name: string) => product.tiers.find((tier) => tier.name === name)!.id;
  const sessionOf = (url: string) =>
    t.stripe.checkout.sessions.retrieve(sessionIdOf(url), {}, { stripeAccount: owner.account });
  const setAdaptivePricing = async (on: boolean) => {
    const saved = await t.request({
      method: "PUT",
      url: "/api/store-currency",
      cookie: owner.cookie,
      body: { adaptivePricing: on },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  };
  const membershipOf = (email: string) =>
    t.db.selectFrom("memberships").selectAll().where("customer_email", "=", email).executeTakeFirst();
  const active = async (email: string) => {
    await eventually(async () => expect((await membershipOf(email))?.status).toBe("active"));
    return (await membershipOf(email))!;
  };
  const ordersOf = (membershipId: string) =>
    t.db
      .selectFrom("orders")
      .select(["amount_cents", "currency", "settlement_cents", "settlement_currency"])
      .where("membership_id", "=", membershipId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  const emailsTo = (to: string) =>
    t.db
      .selectFrom("outbox_emails")
      .select(["subject", "text"])
      .where("to_address", "=", to)
      .orderBy("id")
      .execute();

  beforeAll(async () => {
    owner = await readySeller(t);
    product = await membershipProduct(owner, ADAPTIVE_TIERS);
  });

  it("asks for no Adaptive Pricing while the seller has it off: a German buyer pays dollars", async () => {
    const response = await subscribe(product.id, { tierId: tierId("Supporter"), interval: "month" }, german);
    expect(response.statusCode, response.body).toBe(200);
    const session = await sessionOf(response.json().url);
    expect(session).toMatchObject({
      currency: "usd",
      amount_total: 500,
      adaptive_pricing: { enabled: false },
    });
    const page = await fetch(session.url!, { headers: german });
    expect(await page.text()).not.toContain("conversion fee");

    const email = `dollars-${Date.now()}@example.com`;
    await control(t.emulator).payCheckoutAs(session.id, { email, accept_language: "de-DE" });
    const membership = await active(email);
    expect(membership).toMatchObject({ currency: "usd", amount_cents: 500 });
    await eventually(async () =>
      expect(await ordersOf(membership.id)).toEqual([
        { amount_cents: 500, currency: "usd", settlement_cents: 500, settlement_currency: "usd" },
      ]),
    );
  });

  it("lets a German buyer of a tier without a euro price pay in euros: the membership in dollars, every period's order in euros settled in dollars", async () => {
    await setAdaptivePricing(true);
    const response = await subscribe(product.id, { tierId: tierId("Supporter"), interval: "month" }, german);
    expect(response.statusCode, response.body).toBe(200);
    const session = await sessionOf(response.json().url);
    expect(session).toMatchObject({
      mode: "subscription",
      currency: "usd",
      amount_total: 500,
      adaptive_pricing: { enabled: true },
    });

    // The hosted page offers euros to a browser in Germany: $5.00 × 0.92 plus the 2% fee is €4.70.
    const page = nbsp(await (await fetch(session.url!, { headers: german })).text());
    expect(page).toContain("4,70 €");
    expect(page).toContain('name="currency" value="eur"');
    const email = `adaptive-${Date.now()}@example.com`;
    const paid = await fetch(session.url!, {
      method: "POST",
      redirect: "manual",
      headers: { ...german, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        email,
        card_number: "4242 4242 4242 4242",
        card_expiry: "12 / 34",
        card_cvc: "123",
        currency: "eur",
        terms: "on",
      }),
    });
    expect(paid.status).toBe(303);

    const membership = await active(email);
    expect(membership).toMatchObject({ currency: "usd", amount_cents: 500, tier_id: tierId("Supporter") });
    const subscription = await t.stripe.subscriptions.retrieve(
      membership.stripe_subscription_id,
      {},
      { stripeAccount: owner.account },
    );
    expect(subscription).toMatchObject({
      currency: "usd",
      presentment_details: { presentment_currency: "eur" },
    });

    const first = { amount_cents: 470, currency: "eur", settlement_cents: 500, settlement_currency: "usd" };
    await eventually(async () => expect(await ordersOf(membership.id)).toEqual([first]));

    // The member's emails are in German, as they subscribed: the welcome says they pay in euros.
    let welcome: { text: string } | undefined;
    await eventually(async () => {
      welcome = (await emailsTo(email)).find((mail) => mail.text.includes("/library?token="));
      expect(welcome?.text).toContain("Sie zahlen in EUR");
    });
    expect(nbsp(welcome!.text)).toContain("5,00 $");

    // Switching tier keeps working in the subscription's dollars; the prorated charge is paid in euros.
    const token = new URL(
      welcome!.text.match(/http:\/\/localhost:3000\/library\?token=\S+/)![0],
    ).searchParams.get("token")!;
    const change = (path: string, body: Record<string, unknown>) =>
      t.request({
        method: "POST",
        url: `/api/library/memberships/${membership.id}/${path}`,
        body: { token, ...body },
      });
    const preview = await change("change-preview", { tierId: tierId("Patron"), interval: "month" });
    expect(preview.statusCode, preview.body).toBe(200);
    const shown = preview.json();
    expect(shown).toMatchObject({ tierName: "Patron", amountCents: 1500 });
    expect(shown.amountDueCents).toBeGreaterThan(0);
    const confirmed = await change("change", {
      tierId: tierId("Patron"),
      interval: "month",
      prorationDate: shown.prorationDate,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(204);
    expect(await membershipOf(email)).toMatchObject({
      currency: "usd",
      amount_cents: 1500,
      tier_name: "Patron",
    });
    const switched = {
      amount_cents: presentmentAmount(shown.amountDueCents, "usd", "eur"),
      currency: "eur",
      settlement_cents: shown.amountDueCents,
      settlement_currency: "usd",
    };
    await eventually(async () => expect(await ordersOf(membership.id)).toEqual([first, switched]));

    // A renewal is charged in euros too, at Patron's $15.00 (€14.08), and settles those dollars.
    await control(t.emulator).renew(membership.stripe_subscription_id, "paid");
    const renewal = {
      amount_cents: 1408,
      currency: "eur",
      settlement_cents: 1500,
      settlement_currency: "usd",
    };
    await eventually(async () => expect(await ordersOf(membership.id)).toEqual([first, switched, renewal]));
    // Each receipt shows the euros paid.
    await eventually(async () => {
      const receipts = (await emailsTo(email))
        .map((mail) => nbsp(mail.text).match(/Gezahlter Betrag: ([\d,]+ €)/)?.[1])
        .filter(Boolean);
      expect(receipts).toEqual(["4,70 €", nbsp(formatMoney(switched.amount_cents, "eur", "de")), "14,08 €"]);
    });

    // The seller's totals add up the dollars settled; the members page counts the member in dollars.
    const members = await t.request({ method: "GET", url: "/api/memberships", cookie: owner.cookie });
    expect(members.json().members.find((member: { email: string }) => member.email === email)).toMatchObject({
      amountCents: 1500,
      currency: "usd",
      lifetimeSpendCents: 500 + shown.amountDueCents + 1500,
    });
    const stats = await t.request({ method: "GET", url: "/api/dashboard/stats", cookie: owner.cookie });
    // The first test's $5.00, and this member's.
    expect(stats.json().totalRevenueCents).toBe(500 + 500 + shown.amountDueCents + 1500);
  });

  it("keeps a tier's fixed euro price for a German buyer: no Adaptive Pricing", async () => {
    const response = await subscribe(product.id, { tierId: tierId("Fan"), interval: "month" }, german);
    expect(response.statusCode, response.body).toBe(200);
    const session = await sessionOf(response.json().url);
    expect(session).toMatchObject({
      currency: "eur",
      amount_total: 450,
      adaptive_pricing: { enabled: false },
    });
    // A buyer whose currency the tier has no price in still gets it (an American in dollars: nothing to convert).
    const american = await subscribe(
      product.id,
      { tierId: tierId("Fan"), interval: "month" },
      { "accept-language": "en-US" },
    );
    expect(await sessionOf(american.json().url)).toMatchObject({
      currency: "usd",
      adaptive_pricing: { enabled: true },
    });
  });
});
