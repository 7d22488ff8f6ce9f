import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buyerCountry,
  buyerCurrency,
  COUNTRY_CURRENCIES,
  convertAmount,
  hasRate,
  impliedRate,
  PRESENTMENT_CURRENCIES,
  presentmentAmount,
  presentmentRate,
  proportion,
  tableRate,
} from "./currencies.js";
import {
  createMembershipSession,
  createPurchaseSession,
  startTestEmulator,
  stripeError,
  type TestEmulator,
} from "./test-support.js";

// Currencies: country specs, accounts' currencies, refusing currencies an account can't take, balance
// transactions settled in the account's currency, and Adaptive Pricing on the hosted Checkout page.

let emulator: TestEmulator;
let stripe: Stripe;

beforeAll(async () => {
  emulator = await startTestEmulator();
  stripe = emulator.stripe;
});
afterAll(() => emulator.close());

type PaidSession = Stripe.Checkout.Session & { error?: { message: string; param?: string } };

/** Pays a session through the control API as a buyer whose browser sends `acceptLanguage`. */
async function pay(id: string, acceptLanguage?: string, body: Record<string, unknown> = {}) {
  const response = await fetch(`${emulator.running.url}/_emulator/checkout/sessions/${id}/complete`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(acceptLanguage ? { "accept-language": acceptLanguage } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as PaidSession };
}

/** The hosted page as a browser with these languages sees it. */
async function page(url: string, acceptLanguage?: string) {
  const response = await fetch(url, { headers: acceptLanguage ? { "accept-language": acceptLanguage } : {} });
  return { status: response.status, text: await response.text() };
}

async function charged(account: string, sessionId: string) {
  const session = await stripe.checkout.sessions.retrieve(
    sessionId,
    { expand: ["payment_intent.latest_charge.balance_transaction"] },
    { stripeAccount: account },
  );
  const intent = session.payment_intent as Stripe.PaymentIntent;
  const charge = intent.latest_charge as Stripe.Charge;
  return { session, intent, charge, transaction: charge.balance_transaction as Stripe.BalanceTransaction };
}

function sale(
  currency: string,
  amount: number,
  overrides: Partial<Stripe.Checkout.SessionCreateParams> = {},
) {
  return {
    line_items: [
      { quantity: 1, price_data: { currency, unit_amount: amount, product_data: { name: "Stems" } } },
    ],
    ...overrides,
  } satisfies Partial<Stripe.Checkout.SessionCreateParams>;
}

describe("the conversion table", () => {
  it("has a rate for every presentment currency, and none for sanctioned or unknown codes", () => {
    expect(PRESENTMENT_CURRENCIES.length).toBeGreaterThanOrEqual(130);
    for (const code of PRESENTMENT_CURRENCIES) expect(hasRate(code), code).toBe(true);
    for (const code of ["irr", "kpw", "syp", "cuc", "ves", "xyz"]) {
      expect(PRESENTMENT_CURRENCIES).not.toContain(code);
      expect(hasRate(code)).toBe(false);
    }
    for (const currency of Object.values(COUNTRY_CURRENCIES))
      expect(PRESENTMENT_CURRENCIES).toContain(currency);
  });

  it("converts in integers through USD, half up in the target's minor unit", () => {
    expect(convertAmount(1800, "eur", "usd")).toBe(1957); // 18.00 / 0.92 = 19.5652…
    expect(convertAmount(1500, "jpy", "usd")).toBe(1000);
    expect(convertAmount(1900, "usd", "jpy")).toBe(2850);
    expect(convertAmount(1000, "usd", "eur")).toBe(920);
    expect(convertAmount(1000, "eur", "gbp")).toBe(859); // 10 × 0.79 / 0.92 = 8.5869…
    expect(convertAmount(1, "usd", "jpy")).toBe(2); // ¥1.5 → ¥2
    expect(convertAmount(-1800, "eur", "usd")).toBe(-1957);
    expect(convertAmount(1234, "usd", "usd")).toBe(1234);
    expect(convertAmount(1000, "usd", "kwd")).toBe(3070); // three decimals: 3.070 KWD
    expect(tableRate("eur", "usd")).toBe(1.08696);
    expect(tableRate("usd", "jpy")).toBe(150);
    expect(tableRate("jpy", "usd")).toBe(0.00666667);
  });

  it("prices for buyers with the 2% conversion fee, rounded up", () => {
    expect(presentmentAmount(1900, "usd", "jpy")).toBe(2907); // 2850 × 1.02
    expect(presentmentAmount(1500, "usd", "eur")).toBe(1408); // 13.80 × 1.02 = 14.076
    expect(presentmentAmount(1000, "usd", "gbp")).toBe(806); // 7.90 × 1.02 = 8.058
    expect(presentmentRate("usd", "jpy")).toBe(153);
    expect(impliedRate(2907, "jpy", 1900, "usd")).toBe(0.00653595);
    expect(proportion(500, 1957, 1800)).toBe(544); // 543.6
  });

  it("reads the buyer's country from the most preferred language's region", () => {
    expect(buyerCountry("ja-JP,ja;q=0.9,en-US;q=0.8")).toBe("JP");
    expect(buyerCurrency("ja-JP")).toBe("jpy");
    expect(buyerCurrency("de-DE,de;q=0.9")).toBe("eur");
    expect(buyerCurrency("en-GB")).toBe("gbp");
    expect(buyerCurrency("en;q=0.5, pt-BR")).toBe("brl");
    expect(buyerCurrency("ja")).toBeUndefined();
    expect(buyerCurrency("*")).toBeUndefined();
    expect(buyerCurrency("es-419")).toBeUndefined();
    expect(buyerCurrency(undefined)).toBeUndefined();
    expect(buyerCurrency("not a language!")).toBeUndefined();
  });
});

describe("country specs", () => {
  it("retrieves a country's spec, shaped as Stripe's", async () => {
    const us = await stripe.countrySpecs.retrieve("US");
    expect(us).toMatchObject({
      id: "US",
      object: "country_spec",
      default_currency: "usd",
      supported_bank_account_currencies: { usd: ["US"] },
      supported_payment_methods: ["ach", "card", "stripe"],
    });
    expect(us.supported_payment_currencies[0]).toBe("usd");
    for (const code of ["usd", "eur", "gbp", "cad", "aud", "jpy", "brl", "inr", "mxn", "chf", "sek", "nok"])
      expect(us.supported_payment_currencies).toContain(code);
    for (const code of ["dkk", "pln", "nzd", "sgd", "hkd", "krw"])
      expect(us.supported_payment_currencies).toContain(code);
    for (const code of ["irr", "kpw", "syp", "cuc", "ves"])
      expect(us.supported_payment_currencies).not.toContain(code);
    expect(us.supported_transfer_countries).toContain("GB");
    expect(us.verification_fields.individual.minimum).toContain("individual.ssn_last_4");
    expect(us.verification_fields.company.additional).toEqual([]);

    const defaults = await Promise.all(
      [
        "GB",
        "CA",
        "AU",
        "JP",
        "BR",
        "IN",
        "MX",
        "DE",
        "FR",
        "ES",
        "IT",
        "NL",
        "IE",
        "AT",
        "BE",
        "PT",
        "FI",
      ].map(async (country) => [country, (await stripe.countrySpecs.retrieve(country)).default_currency]),
    );
    expect(Object.fromEntries(defaults)).toEqual({
      GB: "gbp",
      CA: "cad",
      AU: "aud",
      JP: "jpy",
      BR: "brl",
      IN: "inr",
      MX: "mxn",
      DE: "eur",
      FR: "eur",
      ES: "eur",
      IT: "eur",
      NL: "eur",
      IE: "eur",
      AT: "eur",
      BE: "eur",
      PT: "eur",
      FI: "eur",
    });
    const de = await stripe.countrySpecs.retrieve("DE");
    expect(de.supported_payment_currencies[0]).toBe("eur");
    expect(de.supported_payment_currencies).toContain("usd");
    expect((await stripe.countrySpecs.retrieve("BR")).supported_payment_currencies).toEqual(["brl"]);
  });

  it("lists the specs with Stripe's pagination", async () => {
    const first = await stripe.countrySpecs.list({ limit: 5 });
    expect(first).toMatchObject({ object: "list", has_more: true, url: "/v1/country_specs" });
    expect(first.data).toHaveLength(5);
    const all: string[] = [];
    for await (const spec of stripe.countrySpecs.list({ limit: 10 })) all.push(spec.id);
    expect(all).toEqual([...all].sort());
    for (const country of ["US", "GB", "CA", "AU", "JP", "BR", "IN", "MX", "DE", "FR", "FI"])
      expect(all).toContain(country);
  });

  it("answers an unknown country with resource_missing", async () => {
    const error = await stripeError(stripe.countrySpecs.retrieve("ZZ"));
    expect(error).toMatchObject({
      statusCode: 404,
      type: "StripeInvalidRequestError",
      code: "resource_missing",
    });
    expect(error.message).toBe("No such country_spec: 'ZZ'");
    expect(error.param).toBe("id");
  });
});

describe("accounts' currencies", () => {
  it("gives a new account its country's currency", async () => {
    const currencies: Record<string, string | undefined> = {};
    for (const country of ["US", "GB", "CA", "AU", "JP", "BR", "IN", "MX", "DE", "FR", "IE"]) {
      const account = await stripe.accounts.create({ type: "standard", country });
      currencies[country] = account.default_currency;
    }
    expect(currencies).toEqual({
      US: "usd",
      GB: "gbp",
      CA: "cad",
      AU: "aud",
      JP: "jpy",
      BR: "brl",
      IN: "inr",
      MX: "mxn",
      DE: "eur",
      FR: "eur",
      IE: "eur",
    });
    expect((await stripe.accounts.create({ type: "standard" })).default_currency).toBe("usd");
  });

  it("refuses prices and sessions in a currency Stripe doesn't know or the account can't take", async () => {
    const us = await stripe.accounts.create({ type: "standard" });
    const scoped = { stripeAccount: us.id };
    const unknown = await stripeError(
      stripe.prices.create({ currency: "irr", unit_amount: 100, product_data: { name: "x" } }, scoped),
    );
    expect(unknown).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError", param: "currency" });
    expect(unknown.message).toMatch(
      /^Invalid currency: irr\. Stripe currently supports these currencies: usd, aed, afn, /,
    );
    const xyz = await stripeError(
      stripe.prices.create({ currency: "XYZ", unit_amount: 100, product_data: { name: "x" } }, scoped),
    );
    expect(xyz.message).toMatch(/^Invalid currency: xyz\./);

    const session = await stripeError(createPurchaseSession(stripe, us.id, sale("kpw", 100)));
    expect(session).toMatchObject({ statusCode: 400, param: "line_items[0][price_data][currency]" });
    expect(session.message).toMatch(/^Invalid currency: kpw\. Stripe currently supports/);

    const br = await stripe.accounts.create({ type: "standard", country: "BR" });
    const inBrazil = { stripeAccount: br.id };
    const usd = await stripeError(
      stripe.prices.create({ currency: "usd", unit_amount: 100, product_data: { name: "x" } }, inBrazil),
    );
    expect(usd.message).toBe(
      "Invalid currency: usd. Stripe accounts in BR do not support usd. Your account currently supports these currencies: brl",
    );
    const brlSession = await createPurchaseSession(stripe, br.id, sale("brl", 2500));
    expect(brlSession.currency).toBe("brl");
    const refused = await stripeError(createPurchaseSession(stripe, br.id, sale("eur", 2500)));
    expect(refused.param).toBe("line_items[0][price_data][currency]");
    // Nothing was made for the refused session.
    const prices = await stripe.prices.list({ limit: 100 }, inBrazil);
    expect(prices.data.map((price) => price.currency)).toEqual(["brl"]);
  });
});

describe("balance transactions in the account's currency", () => {
  it("books a charge in another currency converted, with the fee on the converted amount", async () => {
    const us = await stripe.accounts.create({ type: "standard" });
    const session = await createPurchaseSession(stripe, us.id, sale("eur", 1800));
    expect((await pay(session.id)).status).toBe(200);
    const { charge, transaction } = await charged(us.id, session.id);
    expect(charge).toMatchObject({ amount: 1800, currency: "eur" });
    expect(transaction).toMatchObject({
      amount: 1957,
      currency: "usd",
      exchange_rate: 1.08696,
      fee: 87, // 2.9% of 1957 = 56.75 → 57, plus 30
      net: 1870,
      fee_details: [{ amount: 87, currency: "usd", type: "stripe_fee" }],
    });

    const yen = await createPurchaseSession(stripe, us.id, sale("jpy", 1500));
    await pay(yen.id);
    expect((await charged(us.id, yen.id)).transaction).toMatchObject({
      amount: 1000,
      currency: "usd",
      exchange_rate: 0.00666667,
    });
  });

  it("keeps a charge in the account's own currency as it is", async () => {
    const de = await stripe.accounts.create({ type: "standard", country: "DE" });
    const session = await createPurchaseSession(stripe, de.id, sale("eur", 1800));
    await pay(session.id);
    expect((await charged(de.id, session.id)).transaction).toMatchObject({
      amount: 1800,
      currency: "eur",
      exchange_rate: null,
      fee: 82, // 52.2 → 52, plus 30
      net: 1718,
    });
    const dollars = await createPurchaseSession(stripe, de.id, sale("usd", 1000));
    await pay(dollars.id);
    expect((await charged(de.id, dollars.id)).transaction).toMatchObject({
      amount: 920,
      currency: "eur",
      exchange_rate: 0.92,
    });
  });

  it("refunds and disputes a converted charge at the charge's rate", async () => {
    const us = await stripe.accounts.create({ type: "standard" });
    const scoped = { stripeAccount: us.id };
    const session = await createPurchaseSession(stripe, us.id, sale("eur", 1800));
    await pay(session.id);
    const { charge } = await charged(us.id, session.id);

    const partial = await stripe.refunds.create({ charge: charge.id, amount: 500 }, scoped);
    expect(partial).toMatchObject({ amount: 500, currency: "eur" });
    const partialTransaction = await stripe.balanceTransactions.retrieve(
      String(partial.balance_transaction),
      {},
      scoped,
    );
    expect(partialTransaction).toMatchObject({
      amount: -544, // 500 × 1957 / 1800 = 543.6
      currency: "usd",
      exchange_rate: 1.08696,
      fee: 0,
      net: -544,
    });
    const rest = await stripe.refunds.create({ charge: charge.id }, scoped);
    const restTransaction = await stripe.balanceTransactions.retrieve(
      String(rest.balance_transaction),
      {},
      scoped,
    );
    expect(restTransaction.amount).toBe(-1413); // 1300 × 1957 / 1800 = 1413.4
    expect(partialTransaction.amount + restTransaction.amount).toBe(-1957 + 0);

    const disputed = await createPurchaseSession(stripe, us.id, sale("eur", 1800));
    await pay(disputed.id);
    const { charge: second } = await charged(us.id, disputed.id);
    const { body: dispute } = await emulator.control<Stripe.Dispute>(`/charges/${second.id}/dispute`, {});
    expect(dispute).toMatchObject({ amount: 1800, currency: "eur" });
    expect(dispute.balance_transactions[0]).toMatchObject({
      amount: -1957,
      currency: "usd",
      exchange_rate: 1.08696,
      fee: 1500,
      net: -3457,
    });
    const { body: won } = await emulator.control<Stripe.Dispute>(`/disputes/${dispute.id}/resolve`, {
      outcome: "won",
    });
    expect(won.balance_transactions[1]).toMatchObject({ amount: 1957, currency: "usd", fee: 0, net: 1957 });
  });
});

describe("Adaptive Pricing on Checkout", () => {
  let seller: Stripe.Account;
  const adaptive = (overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}) =>
    createPurchaseSession(
      stripe,
      seller.id,
      sale("usd", 1900, { adaptive_pricing: { enabled: true }, ...overrides }),
    );

  beforeAll(async () => {
    seller = await stripe.accounts.create({ type: "standard", business_profile: { name: "Field Notes" } });
  });

  it("is off unless asked for, and on when asked for; the session stays in the integration currency", async () => {
    const plain = await createPurchaseSession(stripe, seller.id, sale("usd", 1900));
    expect(plain.adaptive_pricing).toEqual({ enabled: false });
    const session = await adaptive();
    expect(session).toMatchObject({
      adaptive_pricing: { enabled: true },
      currency: "usd",
      amount_total: 1900,
    });
    expect(session.presentment_details).toBeUndefined();
  });

  it("shows a buyer in Japan the total in yen with the conversion and a way to pay in dollars", async () => {
    const session = await adaptive();
    const japan = await page(session.url ?? "", "ja-JP,ja;q=0.9");
    expect(japan.status).toBe(200);
    expect(japan.text).toContain("￥2,907");
    expect(japan.text).toContain(
      "Price converted from $19.00 at 1 USD = 153 JPY, including a 2% conversion fee.",
    );
    expect(japan.text).toContain('href="?currency=usd"');
    expect(japan.text).toContain('<input type="hidden" name="currency" value="jpy">');

    const inDollars = await page(`${session.url}?currency=usd`, "ja-JP");
    expect(inDollars.text).toContain("Pay $19.00");
    expect(inDollars.text).toContain('href="?currency=jpy"');
    expect(inDollars.text).toContain("Pay in JPY (￥2,907) instead");
    expect(inDollars.text).toContain('<input type="hidden" name="currency" value="usd">');

    expect((await page(session.url ?? "", "de-DE")).text).toMatch(/17,83\s€/); // 17.48 × 1.02 = 17.8296
    expect((await page(session.url ?? "", "en-GB")).text).toContain("£15.32"); // 15.01 × 1.02 = 15.3102
  });

  it("converts nothing for a buyer without a region, in the session's currency, or without Adaptive Pricing", async () => {
    const session = await adaptive();
    for (const language of [undefined, "ja", "en-US", "*"]) {
      const seen = await page(session.url ?? "", language);
      expect(seen.text).toContain("Pay $19.00");
      expect(seen.text).not.toContain("conversion fee");
      expect(seen.text).not.toContain('name="currency"');
    }
    const plain = await createPurchaseSession(stripe, seller.id, sale("usd", 1900));
    expect((await page(plain.url ?? "", "ja-JP")).text).not.toContain("￥");
    const brazil = await stripe.accounts.create({ type: "standard", country: "BR" });
    const real = await createPurchaseSession(
      stripe,
      brazil.id,
      sale("brl", 1900, { adaptive_pricing: { enabled: true } }),
    );
    // A Brazilian account charges only in BRL: nothing to offer a buyer in Japan.
    expect((await page(real.url ?? "", "ja-JP")).text).not.toContain("conversion fee");
  });

  it("charges a buyer in Japan in yen and settles the session's amount in the account's currency", async () => {
    const session = await adaptive();
    const paid = await pay(session.id, "ja-JP,ja;q=0.9");
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({
      status: "complete",
      currency: "usd",
      amount_total: 1900,
      presentment_details: { presentment_amount: 2907, presentment_currency: "jpy" },
    });
    const { intent, charge, transaction, session: stored } = await charged(seller.id, session.id);
    expect(stored.presentment_details).toEqual({ presentment_amount: 2907, presentment_currency: "jpy" });
    // The payment keeps the integration amount; `presentment_details` says what the card was charged.
    const yen = { presentment_amount: 2907, presentment_currency: "jpy" };
    expect(intent).toMatchObject({ amount: 1900, currency: "usd", amount_received: 1900 });
    expect(intent.presentment_details).toEqual(yen);
    expect(charge).toMatchObject({ amount: 1900, currency: "usd", presentment_details: yen });
    expect(transaction).toMatchObject({
      amount: 1900,
      currency: "usd",
      exchange_rate: 0.00653595, // 19.00 / 2907
      fee: 85, // 2.9% of 1900 = 55.1 → 55, plus 30
      net: 1815,
    });

    const events = await emulator.connect.waitFor("checkout.session.completed");
    const completed = events
      .map((event) => event.data.object as Stripe.Checkout.Session)
      .find((object) => object.id === session.id);
    expect(completed?.presentment_details).toEqual({ presentment_amount: 2907, presentment_currency: "jpy" });

    // A full refund gives the buyer back their yen and takes back exactly what the charge brought in.
    const refund = await stripe.refunds.create({ payment_intent: intent.id }, { stripeAccount: seller.id });
    expect(refund).toMatchObject({ amount: 1900, currency: "usd", presentment_details: yen });
    const refunded = await stripe.balanceTransactions.retrieve(
      String(refund.balance_transaction),
      {},
      { stripeAccount: seller.id },
    );
    expect(refunded).toMatchObject({ amount: -1900, currency: "usd", exchange_rate: 0.00653595 });
  });

  it("charges in the integration currency when the buyer chooses it, without presentment_details", async () => {
    const session = await adaptive();
    const paid = await pay(session.id, "ja-JP", { currency: "usd" });
    expect(paid.status).toBe(200);
    expect(paid.body.presentment_details).toBeUndefined();
    const { intent, charge, transaction } = await charged(seller.id, session.id);
    expect(intent).toMatchObject({ amount: 1900, currency: "usd" });
    expect(intent.presentment_details).toBeUndefined();
    expect(charge.presentment_details).toBeUndefined();
    expect(transaction).toMatchObject({ amount: 1900, currency: "usd", exchange_rate: null });

    const other = await adaptive();
    const refused = await pay(other.id, "ja-JP", { currency: "eur" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ param: "currency" });
    expect(refused.body.error?.message).toContain("choose usd or jpy");
    // The languages can also be given in the body, as the hosted page would read them.
    const byBody = await pay(other.id, undefined, { accept_language: "en-GB" });
    expect(byBody.body.presentment_details).toEqual({
      presentment_amount: 1532,
      presentment_currency: "gbp",
    });
  });

  it("pays in the buyer's currency through the hosted page's form", async () => {
    const session = await adaptive({ success_url: "http://127.0.0.1:9/done?session={CHECKOUT_SESSION_ID}" });
    const response = await fetch(session.url ?? "", {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "de-DE,de;q=0.9" },
      body: new URLSearchParams({
        email: "kaeufer@example.com",
        card_number: "4242 4242 4242 4242",
        card_expiry: "12 / 34",
        card_cvc: "123",
        currency: "eur",
      }),
    });
    expect(response.status).toBe(303);
    const { intent, transaction, session: stored } = await charged(seller.id, session.id);
    // 17.48 × 1.02 = 17.8296 → 17.83
    expect(intent).toMatchObject({
      amount: 1900,
      currency: "usd",
      presentment_details: { presentment_amount: 1783, presentment_currency: "eur" },
    });
    expect(stored.presentment_details).toEqual({ presentment_amount: 1783, presentment_currency: "eur" });
    expect(transaction).toMatchObject({ amount: 1900, currency: "usd" });
  });

  it("settles in the account's own currency when it differs from the session's", async () => {
    const de = await stripe.accounts.create({ type: "standard", country: "DE" });
    const session = await createPurchaseSession(
      stripe,
      de.id,
      sale("usd", 1900, { adaptive_pricing: { enabled: true } }),
    );
    await pay(session.id, "ja-JP");
    const { intent, transaction } = await charged(de.id, session.id);
    expect(intent).toMatchObject({
      amount: 1900,
      currency: "usd",
      presentment_details: { presentment_amount: 2907, presentment_currency: "jpy" },
    });
    expect(transaction).toMatchObject({ amount: 1748, currency: "eur", exchange_rate: 0.00601307 }); // 19.00 × 0.92
  });
});

describe("Adaptive Pricing on subscriptions", () => {
  let seller: Stripe.Account;
  const scoped = () => ({ stripeAccount: seller.id });
  /** A $5.00 monthly membership's Checkout with Adaptive Pricing (or as `overrides` say). */
  const membership = async (overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}) =>
    (await createMembershipSession(stripe, seller.id, { adaptive_pricing: { enabled: true }, ...overrides }))
      .session;

  /** A paid invoice's PaymentIntent, charge and balance transaction. */
  async function invoicePayment(invoiceId: string) {
    const invoice = await stripe.invoices.retrieve(invoiceId, { expand: ["payments"] }, scoped());
    const intentId = invoice.payments?.data[0]?.payment.payment_intent as string;
    const intent = await stripe.paymentIntents.retrieve(
      intentId,
      { expand: ["latest_charge.balance_transaction"] },
      scoped(),
    );
    const charge = intent.latest_charge as Stripe.Charge;
    return { invoice, intent, charge, transaction: charge.balance_transaction as Stripe.BalanceTransaction };
  }

  // $5.00 at 0.92 EUR per USD plus the 2% conversion fee: 4.692 → €4.70.
  const euros = { presentment_amount: 470, presentment_currency: "eur" };

  beforeAll(async () => {
    seller = await stripe.accounts.create({ type: "standard", business_profile: { name: "The Club" } });
  });

  it("shows a buyer in Germany the first payment in euros, per month, with a way to pay in dollars", async () => {
    const session = await membership();
    expect(session).toMatchObject({ mode: "subscription", currency: "usd", amount_total: 500 });
    const german = await page(session.url ?? "", "de-DE,de;q=0.9");
    expect(german.status).toBe(200);
    expect(german.text).toMatch(/4,70\s€/);
    expect(german.text).toContain(" per month");
    expect(german.text).toContain("Price converted from 5,00");
    expect(german.text).toContain('<input type="hidden" name="currency" value="eur">');
    expect(german.text).toContain('href="?currency=usd"');
    // Without Adaptive Pricing, or with a trial (nothing due today), nothing is converted.
    const plain = await membership({ adaptive_pricing: { enabled: false } });
    expect((await page(plain.url ?? "", "de-DE")).text).not.toContain("conversion fee");
    const trial = await membership({ subscription_data: { trial_period_days: 7 } });
    expect((await page(trial.url ?? "", "de-DE")).text).not.toContain("conversion fee");
  });

  it("starts the subscription in dollars with the buyer's euros as its presentment currency; the first invoice is charged in euros", async () => {
    const session = await membership();
    const paid = await pay(session.id, "de-DE,de;q=0.9");
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ currency: "usd", amount_total: 500, presentment_details: euros });
    const subscription = await stripe.subscriptions.retrieve(String(paid.body.subscription), {}, scoped());
    expect(subscription.currency).toBe("usd");
    expect(subscription.presentment_details).toEqual({ presentment_currency: "eur" });
    expect(subscription.items.data[0]?.price).toMatchObject({ currency: "usd", unit_amount: 500 });

    const { invoice, intent, charge, transaction } = await invoicePayment(String(paid.body.invoice));
    expect(invoice).toMatchObject({ currency: "usd", amount_paid: 500, status: "paid" });
    expect(invoice.payments?.data[0]).toMatchObject({ amount_paid: 500, currency: "usd" });
    expect(intent).toMatchObject({ amount: 500, currency: "usd", presentment_details: euros });
    expect(charge).toMatchObject({ amount: 500, currency: "usd", presentment_details: euros });
    // The account gets the price in its own currency; the fee is on that.
    expect(transaction).toMatchObject({
      amount: 500,
      currency: "usd",
      exchange_rate: 1.06383, // 5.00 / 4.70
      fee: 45, // 2.9% of 500 = 14.5 → 15, plus 30
      net: 455,
    });

    const created = await emulator.connect.waitFor("customer.subscription.created");
    const announced = created
      .map((event) => event.data.object as Stripe.Subscription)
      .find((object) => object.id === subscription.id);
    expect(announced?.presentment_details).toEqual({ presentment_currency: "eur" });
  });

  it("charges every renewal in euros: the renewal action's and the clock's", async () => {
    const session = await membership();
    const paid = await pay(session.id, "de-DE");
    const id = String(paid.body.subscription);
    const renewed = await emulator.control<Stripe.Subscription>(`/subscriptions/${id}/renew`, {
      outcome: "paid",
    });
    expect(renewed.status).toBe(200);
    const first = await invoicePayment(String(renewed.body.latest_invoice));
    expect(first.invoice).toMatchObject({
      billing_reason: "subscription_cycle",
      currency: "usd",
      amount_paid: 500,
    });
    expect(first.intent).toMatchObject({ amount: 500, currency: "usd", presentment_details: euros });
    expect(first.transaction).toMatchObject({ amount: 500, currency: "usd" });

    // The clock renews it when its period ends, in euros again.
    const period = renewed.body.items.data[0]?.current_period_end ?? 0;
    const { body: clock } = await emulator.control<{ now: number }>("/clock");
    await emulator.control("/clock/advance", { seconds: period - clock.now + 60 });
    const later = await stripe.subscriptions.retrieve(id, {}, scoped());
    expect(later.latest_invoice).not.toBe(renewed.body.latest_invoice);
    const second = await invoicePayment(String(later.latest_invoice));
    expect(second.invoice).toMatchObject({ billing_reason: "subscription_cycle", amount_paid: 500 });
    expect(second.charge).toMatchObject({ amount: 500, currency: "usd", presentment_details: euros });
    expect(later.presentment_details).toEqual({ presentment_currency: "eur" });
  });

  it("charges a switch's prorated invoice in euros too", async () => {
    const session = await membership();
    const paid = await pay(session.id, "de-DE");
    const subscription = await stripe.subscriptions.retrieve(String(paid.body.subscription), {}, scoped());
    const item = subscription.items.data[0];
    const patron = await stripe.prices.create(
      {
        currency: "usd",
        unit_amount: 1500,
        recurring: { interval: "month" },
        product_data: { name: "Patron" },
      },
      scoped(),
    );
    const updated = await stripe.subscriptions.update(
      subscription.id,
      { items: [{ id: item?.id, price: patron.id }], proration_behavior: "always_invoice" },
      scoped(),
    );
    const { invoice, intent } = await invoicePayment(String(updated.latest_invoice));
    expect(invoice).toMatchObject({ billing_reason: "subscription_update", currency: "usd", status: "paid" });
    expect(invoice.amount_paid).toBeGreaterThan(0);
    expect(intent).toMatchObject({
      amount: invoice.amount_paid,
      currency: "usd",
      presentment_details: { presentment_currency: "eur" },
    });
    expect(intent.presentment_details?.presentment_amount).toBe(
      presentmentAmount(invoice.amount_paid, "usd", "eur"),
    );
    expect(updated.presentment_details).toEqual({ presentment_currency: "eur" });
  });

  it("keeps a buyer who chose dollars, or a subscription made without Adaptive Pricing, in dollars", async () => {
    const session = await membership();
    const paid = await pay(session.id, "de-DE", { currency: "usd" });
    expect(paid.status).toBe(200);
    expect(paid.body.presentment_details).toBeUndefined();
    const subscription = await stripe.subscriptions.retrieve(String(paid.body.subscription), {}, scoped());
    expect(subscription.presentment_details).toBeUndefined();
    const { intent, transaction } = await invoicePayment(String(paid.body.invoice));
    expect(intent).toMatchObject({ amount: 500, currency: "usd" });
    expect(intent.presentment_details).toBeUndefined();
    expect(transaction).toMatchObject({ amount: 500, currency: "usd", exchange_rate: null });

    const plain = await membership({ adaptive_pricing: { enabled: false } });
    const plainPaid = await pay(plain.id, "de-DE");
    expect(plainPaid.body.presentment_details).toBeUndefined();
    const renewed = await emulator.control<Stripe.Subscription>(
      `/subscriptions/${String(plainPaid.body.subscription)}/renew`,
      { outcome: "paid" },
    );
    const renewal = await invoicePayment(String(renewed.body.latest_invoice));
    expect(renewal.intent.presentment_details).toBeUndefined();
  });
});

describe("subscriptions in another currency than the account's", () => {
  it("takes the session's currency, bills the subscription in it and settles its invoices' charges converted", async () => {
    const us = await stripe.accounts.create({ type: "standard" });
    const price = await stripe.prices.create(
      { currency: "eur", unit_amount: 450, recurring: { interval: "month" }, product_data: { name: "Fan" } },
      { stripeAccount: us.id },
    );
    const session = await stripe.checkout.sessions.create(
      {
        mode: "subscription",
        currency: "eur",
        line_items: [{ price: price.id, quantity: 1 }],
        customer_email: "fan@example.com",
        success_url: "http://127.0.0.1:9/joined",
      },
      { stripeAccount: us.id },
    );
    expect(session).toMatchObject({ currency: "eur", amount_total: 450 });
    expect((await pay(session.id)).status).toBe(200);
    const paid = await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: us.id });
    const subscription = await stripe.subscriptions.retrieve(
      paid.subscription as string,
      { expand: ["latest_invoice.payments"] },
      { stripeAccount: us.id },
    );
    expect(subscription.currency).toBe("eur");
    const invoice = subscription.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ currency: "eur", amount_paid: 450, status: "paid" });
    const intentId = invoice.payments?.data[0]?.payment.payment_intent as string;
    const intent = await stripe.paymentIntents.retrieve(
      intentId,
      { expand: ["latest_charge.balance_transaction"] },
      { stripeAccount: us.id },
    );
    expect(intent).toMatchObject({ amount: 450, currency: "eur" });
    const transaction = (intent.latest_charge as Stripe.Charge)
      .balance_transaction as Stripe.BalanceTransaction;
    expect(transaction).toMatchObject({ amount: 489, currency: "usd", exchange_rate: 1.08696 });
  });

  it("refuses a session currency its prices are not in", async () => {
    const us = await stripe.accounts.create({ type: "standard" });
    const price = await stripe.prices.create(
      { currency: "usd", unit_amount: 500, recurring: { interval: "month" }, product_data: { name: "Fan" } },
      { stripeAccount: us.id },
    );
    const error = await stripeError(
      stripe.checkout.sessions.create(
        {
          mode: "subscription",
          currency: "eur",
          line_items: [{ price: price.id, quantity: 1 }],
          success_url: "http://127.0.0.1:9/joined",
        },
        { stripeAccount: us.id },
      ),
    );
    expect(error.statusCode).toBe(400);
    expect(error.param).toBe("line_items[0][price]");
    expect(error.message).toBe(
      "The price specified supports currencies of `usd` which doesn't include the expected currency of `eur`.",
    );
  });
});
