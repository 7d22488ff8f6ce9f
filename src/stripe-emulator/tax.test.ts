import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { calculateTax, divideHalfUp, formatRate, isCovered, taxOn, taxTotals } from "./tax/calculate.js";
import { createPurchaseSession, startTestEmulator, stripeError, type TestEmulator } from "./test-support.js";

let emulator: TestEmulator;
let stripe: Stripe;

beforeAll(async () => {
  emulator = await startTestEmulator();
  stripe = emulator.stripe;
});
afterAll(() => emulator.close());

/** A seller with a head office and the given registrations (control API). */
async function taxedSeller(
  registrations: { country: string; type: string; state?: string }[],
  headOffice: { country: string; state?: string } = { country: "DE" },
) {
  const account = await stripe.accounts.create({ type: "standard", email: "seller@example.com" });
  await emulator.control(`/accounts/${account.id}/tax/head_office`, headOffice);
  for (const registration of registrations) {
    const { status } = await emulator.control(`/accounts/${account.id}/tax/registrations`, registration);
    expect(status).toBe(200);
  }
  return account.id;
}

function taxedSession(
  account: string,
  amount: number,
  behavior: "inclusive" | "exclusive",
  overrides: Partial<Stripe.Checkout.SessionCreateParams> = {},
  currency = "eur",
) {
  return createPurchaseSession(stripe, account, {
    automatic_tax: { enabled: true, liability: { type: "self" } },
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency,
          unit_amount: amount,
          tax_behavior: behavior,
          product_data: { name: "Field recordings", tax_code: "txcd_10000000" },
        },
      },
    ],
    ...overrides,
  });
}

const pay = (id: string, body: Record<string, unknown>) =>
  emulator.control<Stripe.Checkout.Session & { error?: { message: string; code: string; param: string } }>(
    `/checkout/sessions/${id}/complete`,
    { name: "Erika Mustermann", ...body },
  );

const retrieve = (account: string, id: string) =>
  stripe.checkout.sessions.retrieve(
    id,
    { expand: ["total_details.breakdown", "line_items", "payment_intent"] },
    { stripeAccount: account },
  );

describe("the calculation", () => {
  it("rounds half-up with integers, exclusive and inclusive", () => {
    expect(divideHalfUp(5, 10)).toBe(1);
    expect(divideHalfUp(4, 10)).toBe(0);
    expect(taxOn(2000, 19_000, "exclusive")).toBe(380);
    expect(taxOn(2000, 19_000, "inclusive")).toBe(319);
    expect(taxOn(999, 8_875, "exclusive")).toBe(89);
    expect(taxOn(1000, 6_250, "exclusive")).toBe(63); // 62.5 → 63
    expect(formatRate(8_875)).toBe("8.875%");
    expect(formatRate(19_000)).toBe("19%");
  });

  it("collects only where registered: OSS covers the EU, a US registration one state", () => {
    const oss = [{ country: "DE", type: "oss_union", state: null }];
    expect(isCovered({ country: "FR", state: null }, oss)).toBe(true);
    expect(isCovered({ country: "GB", state: null }, oss)).toBe(false);
    const ny = [{ country: "US", type: "state_sales_tax", state: "NY" }];
    expect(isCovered({ country: "US", state: "NY" }, ny)).toBe(true);
    expect(isCovered({ country: "US", state: "TX" }, ny)).toBe(false);
    const [exempt] = calculateTax(
      [{ amount: 1000, behavior: "exclusive" }],
      { place: { country: "DE", state: null }, taxExempt: "exempt", euVatId: false },
      oss,
    );
    expect(exempt).toMatchObject({ amount: 0, reason: "customer_exempt" });
  });

  it("reverse charge, uncovered and unknown places, inclusive lines, Texas", () => {
    const de = [{ country: "DE", type: "standard", state: null }];
    const buyer = (country: string, state: string | null = null) => ({
      place: { country, state },
      taxExempt: "none" as const,
      euVatId: false,
    });
    expect(
      calculateTax([{ amount: 2000, behavior: "exclusive" }], { ...buyer("DE"), euVatId: true }, de)[0],
    ).toMatchObject({
      amount: 0,
      taxableAmount: 2000,
      reason: "reverse_charge",
    });
    // A standard DE registration does not cover France.
    expect(calculateTax([{ amount: 2000, behavior: "exclusive" }], buyer("FR"), de)[0]).toMatchObject({
      amount: 0,
      taxableAmount: 0,
      reason: "not_collecting",
      rule: { country: "FR", rate: 20_000 },
    });
    // Registered in a place outside the table: still nothing collected.
    const jp = [{ country: "JP", type: "standard", state: null }];
    expect(calculateTax([{ amount: 2000, behavior: "exclusive" }], buyer("JP"), jp)[0]).toMatchObject({
      amount: 0,
      reason: "not_collecting",
      rule: null,
    });
    const tx = [{ country: "US", type: "state_sales_tax", state: "TX" }];
    const lines = calculateTax(
      [
        { amount: 1000, behavior: "exclusive" },
        { amount: 1000, behavior: "inclusive" },
      ],
      buyer("US", "TX"),
      tx,
    );
    expect(lines.map((line) => [line.amount, line.taxableAmount, line.inclusive])).toEqual([
      [63, 1000, false], // 62.5 → 63
      [59, 941, true], // 1000 × 6250 / 106250 = 58.82… → 59
    ]);
    expect(taxTotals(lines)).toEqual({ exclusive: 63, all: 122 });
    expect(taxOn(0, 19_000, "exclusive")).toBe(0);
  });
});

describe("tax settings and registrations", () => {
  it("settings go from pending to active with a head office, sending tax.settings.updated", async () => {
    const account = await stripe.accounts.create({ type: "standard" });
    const scoped = { stripeAccount: account.id };
    const fresh = await stripe.tax.settings.retrieve({}, scoped);
    expect(fresh).toEqual({
      object: "tax.settings",
      defaults: { provider: "stripe", tax_behavior: null, tax_code: null },
      head_office: null,
      livemode: false,
      status: "pending",
      status_details: { pending: { missing_fields: ["head_office"] } },
    });
    const updated = await stripe.tax.settings.update(
      {
        defaults: { tax_behavior: "exclusive" },
        head_office: {
          address: { country: "DE", city: "Berlin", postal_code: "10115", line1: "Unter den Linden 1" },
        },
      },
      scoped,
    );
    expect(updated.status).toBe("active");
    expect(updated.status_details).toEqual({ active: {} });
    expect(updated.head_office?.address).toEqual({
      city: "Berlin",
      country: "DE",
      line1: "Unter den Linden 1",
      line2: null,
      postal_code: "10115",
      state: null,
    });
    const [event] = await emulator.connect.waitFor("tax.settings.updated");
    expect(event?.account).toBe(account.id);
    expect(event?.data.object).toMatchObject({ object: "tax.settings", status: "active" });
    expect(event?.data.previous_attributes).toMatchObject({ status: "pending", head_office: null });

    // The same settings again change nothing and send nothing.
    await stripe.tax.settings.update({ defaults: { tax_behavior: "exclusive" } }, scoped);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(
      emulator.connect.events("tax.settings.updated").filter((e) => e.account === account.id),
    ).toHaveLength(1);

    const unknown = await stripeError(
      stripe.tax.settings.update(
        { head_office: { address: { country: "DE" } }, nope: 1 } as Stripe.Tax.SettingsUpdateParams,
        scoped,
      ),
    );
    expect(unknown.code).toBe("parameter_unknown");
  });

  it("creates, lists by status, retrieves and expires registrations", async () => {
    const account = await stripe.accounts.create({ type: "standard" });
    const scoped = { stripeAccount: account.id };
    const oss = await stripe.tax.registrations.create(
      { country: "DE", country_options: { de: { type: "oss_union" } }, active_from: "now" },
      scoped,
    );
    expect(oss).toMatchObject({
      object: "tax.registration",
      country: "DE",
      country_options: { de: { type: "oss_union" } },
      status: "active",
      expires_at: null,
      livemode: false,
    });
    expect(oss.id).toMatch(/^taxreg_/);
    const ny = await stripe.tax.registrations.create(
      {
        country: "US",
        country_options: { us: { state: "NY", type: "state_sales_tax" } },
        active_from: "now",
      },
      scoped,
    );
    expect(ny.country_options.us).toEqual({ state: "NY", type: "state_sales_tax" });
    const later = await stripe.tax.registrations.create(
      {
        country: "GB",
        country_options: { gb: { type: "standard" } },
        active_from: Math.floor(Date.now() / 1000) + 86_400,
      },
      scoped,
    );
    expect(later.status).toBe("scheduled");

    const listed = await stripe.tax.registrations.list({}, scoped);
    expect(listed.data.map((registration) => registration.id)).toEqual([later.id, ny.id, oss.id]);
    expect(
      (await stripe.tax.registrations.list({ status: "scheduled" }, scoped)).data.map((r) => r.id),
    ).toEqual([later.id]);

    const ended = await stripe.tax.registrations.update(ny.id, { expires_at: "now" }, scoped);
    expect(ended.status).toBe("expired");
    expect((await stripe.tax.registrations.list({ status: "active" }, scoped)).data.map((r) => r.id)).toEqual(
      [oss.id],
    );
    expect((await stripe.tax.registrations.retrieve(ny.id, {}, scoped)).status).toBe("expired");

    const mismatch = await stripeError(
      stripe.tax.registrations.create(
        { country: "DE", country_options: { fr: { type: "standard" } }, active_from: "now" },
        scoped,
      ),
    );
    expect(mismatch.statusCode).toBe(400);
    const missing = await stripeError(stripe.tax.registrations.retrieve("taxreg_nope", {}, scoped));
    expect(missing.statusCode).toBe(404);
  });
});

describe("Checkout with automatic tax", () => {
  it("is refused while the account's tax settings are not active", async () => {
    const account = await stripe.accounts.create({ type: "standard" });
    const error = await stripeError(taxedSession(account.id, 2000, "exclusive"));
    expect(error.statusCode).toBe(400);
    expect(error.type).toBe("StripeInvalidRequestError");
    expect(error.message).toMatch(/Stripe Tax has not been activated/);
    expect(error.param).toBe("automatic_tax[enabled]");
  });

  it("DE consumer, exclusive: 2000 + 380 VAT = 2380, charged in full; breakdown and line item taxes", async () => {
    const account = await taxedSeller([{ country: "DE", type: "standard" }]);
    const session = await taxedSession(account, 2000, "exclusive");
    expect(session.automatic_tax).toEqual({
      enabled: true,
      liability: { type: "self" },
      provider: "stripe",
      status: "requires_location_inputs",
    });
    const paid = await pay(session.id, {
      address: { country: "DE", postal_code: "10115", city: "Berlin", line1: "Hauptstr. 1" },
    });
    expect(paid.status).toBe(200);
    const done = await retrieve(account, session.id);
    expect(done).toMatchObject({
      amount_subtotal: 2000,
      amount_total: 2380,
      automatic_tax: { status: "complete" },
      customer_details: {
        address: {
          country: "DE",
          postal_code: "10115",
          city: "Berlin",
          line1: "Hauptstr. 1",
          state: null,
          line2: null,
        },
        name: "Erika Mustermann",
        tax_exempt: "none",
        tax_ids: [],
        business_name: null,
      },
    });
    expect(done.total_details?.amount_tax).toBe(380);
    const [tax] = done.total_details?.breakdown?.taxes ?? [];
    expect(tax).toMatchObject({
      amount: 380,
      taxability_reason: "standard_rated",
      taxable_amount: 2000,
      rate: {
        object: "tax_rate",
        percentage: 19,
        effective_percentage: 19,
        country: "DE",
        state: null,
        display_name: "VAT",
        tax_type: "vat",
        inclusive: false,
        jurisdiction_level: "country",
      },
    });
    expect(tax?.rate.id).toMatch(/^txr_/);
    expect((done.payment_intent as Stripe.PaymentIntent).amount).toBe(2380);
    expect(done.line_items?.data[0]).toMatchObject({
      amount_subtotal: 2000,
      amount_tax: 380,
      amount_total: 2380,
    });
    const items = await stripe.checkout.sessions.listLineItems(
      session.id,
      { expand: ["data.taxes"] },
      { stripeAccount: account },
    );
    expect(items.data[0]?.taxes).toEqual([
      expect.objectContaining({ amount: 380, taxability_reason: "standard_rated" }),
    ]);
    const nested = await stripe.checkout.sessions.retrieve(
      session.id,
      { expand: ["line_items.data.taxes"] },
      { stripeAccount: account },
    );
    expect(nested.line_items?.data[0]?.taxes?.[0]?.rate.percentage).toBe(19);

    const [event] = (await emulator.connect.waitFor("checkout.session.completed", 1)).filter(
      (e) => (e.data.object as Stripe.Checkout.Session).id === session.id,
    );
    expect(event?.data.object).toMatchObject({ amount_total: 2380, total_details: { amount_tax: 380 } });

    // A partial refund, then the rest (tax included).
    const intent = done.payment_intent as Stripe.PaymentIntent;
    await stripe.refunds.create({ payment_intent: intent.id, amount: 1000 }, { stripeAccount: account });
    const rest = await stripe.refunds.create({ payment_intent: intent.id }, { stripeAccount: account });
    expect(rest.amount).toBe(1380);
  });

  it("DE consumer, inclusive: 2000 holds 319 VAT, total unchanged", async () => {
    const account = await taxedSeller([{ country: "DE", type: "oss_union" }]);
    const session = await taxedSession(account, 2000, "inclusive");
    await pay(session.id, { address: { country: "DE", postal_code: "10115" } });
    const done = await retrieve(account, session.id);
    expect(done.amount_total).toBe(2000);
    expect(done.total_details?.amount_tax).toBe(319);
    expect(done.total_details?.breakdown?.taxes[0]).toMatchObject({
      amount: 319,
      taxable_amount: 1681,
      rate: { inclusive: true, percentage: 19 },
    });
  });

  it("US-NY 8.875% on 999 rounds half-up to 89", async () => {
    const account = await taxedSeller([{ country: "US", type: "state_sales_tax", state: "NY" }], {
      country: "US",
      state: "NY",
    });
    const session = await taxedSession(account, 999, "exclusive", {}, "usd");
    await pay(session.id, { address: { country: "US", state: "NY", postal_code: "10001" } });
    const done = await retrieve(account, session.id);
    expect(done.amount_total).toBe(1088);
    expect(done.total_details?.breakdown?.taxes[0]).toMatchObject({
      amount: 89,
      rate: {
        percentage: 8.875,
        country: "US",
        state: "NY",
        display_name: "Sales Tax",
        tax_type: "sales_tax",
        jurisdiction_level: "state",
      },
    });
  });

  it("where the seller is not registered: not_collecting, 0, with the place in the breakdown", async () => {
    const account = await taxedSeller([{ country: "DE", type: "standard" }]);
    const session = await taxedSession(account, 2000, "exclusive");
    await pay(session.id, { address: { country: "FR", postal_code: "75001" } });
    const done = await retrieve(account, session.id);
    expect(done.amount_total).toBe(2000);
    expect(done.total_details?.amount_tax).toBe(0);
    expect(done.total_details?.breakdown?.taxes).toEqual([
      expect.objectContaining({
        amount: 0,
        taxability_reason: "not_collecting",
        taxable_amount: 0,
        rate: expect.objectContaining({ percentage: 0, country: "FR", display_name: "VAT" }),
      }),
    ]);
  });

  it("reverse charge for a customer with tax_exempt=reverse", async () => {
    const account = await taxedSeller([{ country: "DE", type: "oss_union" }]);
    const customer = await stripe.customers.create(
      {
        email: "firma@example.com",
        name: "Firma GmbH",
        tax_exempt: "reverse",
        address: { country: "FR", postal_code: "75001", city: "Paris", line1: "1 rue de Rivoli" },
        tax_id_data: [{ type: "eu_vat", value: "FRAB123456789" }],
      },
      { stripeAccount: account },
    );
    expect(customer).toMatchObject({ tax_exempt: "reverse", address: { country: "FR" } });
    const withIds = await stripe.customers.retrieve(
      customer.id,
      { expand: ["tax_ids"] },
      { stripeAccount: account },
    );
    expect((withIds as Stripe.Customer).tax_ids?.data[0]).toMatchObject({
      object: "tax_id",
      type: "eu_vat",
      value: "FRAB123456789",
      country: "FR",
    });

    const session = await taxedSession(account, 2000, "exclusive", {
      customer: customer.id,
      customer_email: undefined,
    });
    // The customer's address is known, so the session is taxed at once.
    expect(session.automatic_tax.status).toBe("complete");
    expect(session.amount_total).toBe(2000);
    await pay(session.id, {});
    const done = await retrieve(account, session.id);
    expect(done.customer_details).toMatchObject({
      tax_exempt: "reverse",
      tax_ids: [{ type: "eu_vat", value: "FRAB123456789" }],
    });
    expect(done.total_details?.breakdown?.taxes[0]).toMatchObject({
      amount: 0,
      taxability_reason: "reverse_charge",
      taxable_amount: 2000,
    });
  });

  it("reverse charge for a business buyer who gives an EU VAT number on the page", async () => {
    const account = await taxedSeller([{ country: "DE", type: "oss_union" }]);
    const session = await taxedSession(account, 2000, "exclusive", { tax_id_collection: { enabled: true } });
    expect(session.tax_id_collection).toEqual({ enabled: true, required: "never" });
    await pay(session.id, {
      address: { country: "IE", postal_code: "D02 X285" },
      business_name: "Acme Ltd",
      tax_id: "IE 6388047V",
    });
    const done = await retrieve(account, session.id);
    expect(done.amount_total).toBe(2000);
    expect(done.customer_details).toMatchObject({
      business_name: "Acme Ltd",
      tax_ids: [{ type: "eu_vat", value: "IE6388047V" }],
    });
    expect(done.total_details?.breakdown?.taxes[0]?.taxability_reason).toBe("reverse_charge");
  });

  it("requires the terms of service box when consent is required, with the custom text", async () => {
    const account = await taxedSeller([{ country: "DE", type: "standard" }]);
    const session = await taxedSession(account, 2000, "exclusive", {
      consent_collection: { terms_of_service: "required" },
      custom_text: {
        terms_of_service_acceptance: { message: "I agree to the [Terms](https://example.com/terms)." },
        submit: { message: "Downloads start right after payment." },
      },
    });
    expect(session.consent_collection).toEqual({
      payment_method_reuse_agreement: null,
      promotions: null,
      terms_of_service: "required",
    });
    expect(session.custom_text.terms_of_service_acceptance?.message).toContain("I agree");
    const refused = await pay(session.id, {
      address: { country: "DE", postal_code: "10115" },
      terms_of_service: false,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.param).toBe("terms_of_service");
    expect((await retrieve(account, session.id)).status).toBe("open");
    const paid = await pay(session.id, {
      address: { country: "DE", postal_code: "10115" },
      terms_of_service: true,
    });
    expect(paid.status).toBe(200);
    expect((await retrieve(account, session.id)).consent).toEqual({
      promotions: null,
      terms_of_service: "accepted",
    });
  });

  it("checks customer_update and the tax behaviour as Stripe does", async () => {
    const account = await taxedSeller([{ country: "DE", type: "standard" }]);
    const customer = await stripe.customers.create({ email: "b@example.com" }, { stripeAccount: account });
    const noAddress = await stripeError(
      taxedSession(account, 2000, "exclusive", { customer: customer.id, customer_email: undefined }),
    );
    expect(noAddress.message).toMatch(/requires a valid address on the Customer/);
    const session = await taxedSession(account, 2000, "exclusive", {
      customer: customer.id,
      customer_email: undefined,
      customer_update: { address: "auto", name: "auto" },
    });
    await pay(session.id, { address: { country: "DE", postal_code: "10115" } });
    const saved = await stripe.customers.retrieve(customer.id, {}, { stripeAccount: account });
    expect(saved).toMatchObject({
      address: { country: "DE", postal_code: "10115" },
      name: "Erika Mustermann",
    });

    const unset = await stripeError(
      createPurchaseSession(stripe, account, {
        automatic_tax: { enabled: true },
        line_items: [
          { quantity: 1, price_data: { currency: "eur", unit_amount: 100, product_data: { name: "X" } } },
        ],
      }),
    );
    expect(unset.param).toBe("line_items[0][price_data][tax_behavior]");
    const unknown = await stripeError(
      taxedSession(account, 2000, "exclusive", {
        nope: true,
      } as Partial<Stripe.Checkout.SessionCreateParams>),
    );
    expect(unknown.code).toBe("parameter_unknown");
  });

  it("taxes the amount after a discount", async () => {
    const account = await taxedSeller([{ country: "DE", type: "standard" }]);
    const coupon = await stripe.coupons.create(
      { percent_off: 50, duration: "once" },
      { stripeAccount: account },
    );
    const session = await taxedSession(account, 2000, "exclusive", { discounts: [{ coupon: coupon.id }] });
    await pay(session.id, { address: { country: "DE", postal_code: "10115" } });
    const done = await retrieve(account, session.id);
    expect(done.amount_total).toBe(1190);
    expect(done.total_details).toMatchObject({ amount_discount: 1000, amount_tax: 190 });
    expect(done.total_details?.breakdown?.discounts[0]).toMatchObject({
      amount: 1000,
      discount: { object: "discount", source: { coupon: coupon.id } },
    });
  });
});

/** Posts the hosted Checkout page's form, as a browser would. */
const submitPage = (url: string, fields: Record<string, string>) =>
  fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      email: "buyer@example.com",
      card_number: "4242 4242 4242 4242",
      card_expiry: "12 / 34",
      card_cvc: "123",
      ...fields,
    }).toString(),
  });

describe("the hosted pages", () => {
  it("Checkout shows the address, business and terms fields and the rate table; refuses without the box; pays with a VAT number", async () => {
    const account = await taxedSeller([{ country: "DE", type: "oss_union" }]);
    const session = await taxedSession(account, 2000, "exclusive", {
      tax_id_collection: { enabled: true },
      consent_collection: { terms_of_service: "required" },
      custom_text: {
        terms_of_service_acceptance: { message: "I accept the [terms](https://example.com/terms)." },
      },
    });
    const url = session.url ?? "";
    const page = await (await fetch(url)).text();
    for (const fragment of [
      'id="country"',
      'id="state"',
      'id="postal_code"',
      'id="line1"',
      'id="city"',
      'id="business"',
      'id="business_name"',
      'id="tax_id"',
      'id="terms"',
      '<a href="https://example.com/terms" target="_blank" rel="noopener">terms</a>',
      "Enter address to calculate",
      "VAT (19%)",
      "Sales tax (8.875%)",
    ]) {
      expect(page).toContain(fragment);
    }

    const refused = await submitPage(url, { name: "Erika", country: "DE", postal_code: "10115" });
    expect(refused.status).toBe(400);
    const refusedPage = await refused.text();
    expect(refusedPage).toContain('role="alert">You must agree to the terms of service to continue.');
    expect(refusedPage).toContain('aria-describedby="terms_of_service-error"');
    expect((await retrieve(account, session.id)).status).toBe("open");

    const missingCountry = await submitPage(url, { name: "Erika", terms: "on" });
    expect(missingCountry.status).toBe(400);
    expect(await missingCountry.text()).toContain("Select your country or region.");

    const paid = await submitPage(url, {
      name: "Erika",
      country: "FR",
      postal_code: "75001",
      business: "on",
      business_name: "Société Exemple",
      tax_id: "FR12345678901",
      terms: "on",
    });
    expect(paid.status).toBe(303);
    const done = await retrieve(account, session.id);
    expect(done).toMatchObject({
      status: "complete",
      amount_total: 2000,
      consent: { terms_of_service: "accepted", promotions: null },
      customer_details: {
        business_name: "Société Exemple",
        tax_ids: [{ type: "eu_vat", value: "FR12345678901" }],
        address: { country: "FR", postal_code: "75001" },
      },
    });
    expect(done.total_details?.breakdown?.taxes[0]?.taxability_reason).toBe("reverse_charge");
  });

  it("the Dashboard tax page sets the head office (tax.settings.updated) and adds and ends registrations", async () => {
    const account = await stripe.accounts.create({ type: "standard" });
    const base = `${emulator.running.url}/dashboard/tax`;
    const query = `?account=${account.id}`;
    const post = (path: string, fields: Record<string, string>) =>
      fetch(`${base}${path}${query}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      });
    const first = await (await fetch(`${base}${query}`)).text();
    expect(first).toContain("Pending: add your head office");
    expect((await fetch(`${base}?account=acct_nope`)).status).toBe(404);

    const saved = await post("/head_office", { country: "US", state: "NY", city: "New York" });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe(`/dashboard/tax${query}&notice=head_office`);
    const settings = await stripe.tax.settings.retrieve({}, { stripeAccount: account.id });
    expect(settings).toMatchObject({
      status: "active",
      head_office: { address: { country: "US", state: "NY" } },
    });
    // Earlier tests' accounts sent theirs too: wait for this account's.
    await vi.waitFor(
      async () => {
        const events = await emulator.connect.waitFor("tax.settings.updated", 1);
        expect(events.some((event) => event.account === account.id)).toBe(true);
      },
      { timeout: 10_000, interval: 50 },
    );

    const bad = await post("/registrations", { country: "US", type: "state_sales_tax" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Missing required param: country_options[us][state].");
    expect(
      (await post("/registrations", { country: "US", state: "TX", type: "state_sales_tax" })).status,
    ).toBe(303);
    const [registration] = (await stripe.tax.registrations.list({}, { stripeAccount: account.id })).data;
    expect(registration).toMatchObject({
      country: "US",
      country_options: { us: { state: "TX", type: "state_sales_tax" } },
      status: "active",
    });
    const listed = await (await fetch(`${base}${query}`)).text();
    expect(listed).toContain("Texas, United States");
    expect((await post(`/registrations/${registration?.id}/expire`, {})).status).toBe(303);
    expect(
      (await stripe.tax.registrations.retrieve(registration?.id ?? "", {}, { stripeAccount: account.id }))
        .status,
    ).toBe("expired");
  });
});
