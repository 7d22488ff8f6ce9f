import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "./test-support.js";

// Stripe Tax on subscriptions started by Checkout: the subscription, each invoice, the session.

let emulator: TestEmulator;
let stripe: Stripe;

beforeAll(async () => {
  emulator = await startTestEmulator();
  stripe = emulator.stripe;
});
afterAll(() => emulator.close());

async function taxedSeller(registrations: { country: string; type: string; state?: string }[]) {
  const account = await stripe.accounts.create({ type: "standard", email: "seller@example.com" });
  await emulator.control(`/accounts/${account.id}/tax/head_office`, { country: "DE" });
  for (const registration of registrations) {
    const { status } = await emulator.control(`/accounts/${account.id}/tax/registrations`, registration);
    expect(status).toBe(200);
  }
  return account.id;
}

const DE_ADDRESS = { country: "DE", postal_code: "10115", line1: "Unter den Linden 1", city: "Berlin" };

/** A membership at `amount` a month with automatic tax, paid by a buyer at `address`. */
async function subscribe(
  account: string,
  amount: number,
  behavior: "inclusive" | "exclusive" | undefined,
  options: {
    address?: Record<string, string>;
    trialDays?: number;
    taxId?: string;
  } = {},
) {
  const scoped = { stripeAccount: account };
  const session = await stripe.checkout.sessions.create(
    {
      mode: "subscription",
      automatic_tax: { enabled: true },
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: "eur",
            unit_amount: amount,
            recurring: { interval: "month" },
            ...(behavior ? { tax_behavior: behavior } : {}),
            product_data: { name: "Supporter membership" },
          },
        },
      ],
      ...(options.trialDays ? { subscription_data: { trial_period_days: options.trialDays } } : {}),
      ...(options.taxId ? { tax_id_collection: { enabled: true } } : {}),
      customer_email: "member@example.com",
      success_url: "http://127.0.0.1:9/joined?session={CHECKOUT_SESSION_ID}",
      cancel_url: "http://127.0.0.1:9/membership",
    },
    scoped,
  );
  const paid = await emulator.control<Stripe.Checkout.Session>(`/checkout/sessions/${session.id}/complete`, {
    name: "Erika Mustermann",
    address: options.address ?? DE_ADDRESS,
    ...(options.taxId ? { business_name: "Mustermann GmbH", tax_id: options.taxId } : {}),
  });
  expect(paid.status).toBe(200);
  const completed = await stripe.checkout.sessions.retrieve(
    session.id,
    { expand: ["total_details.breakdown", "line_items.data.taxes"] },
    scoped,
  );
  const subscription = await stripe.subscriptions.retrieve(String(completed.subscription), {}, scoped);
  const invoice = await stripe.invoices.retrieve(String(completed.invoice), { expand: ["payments"] }, scoped);
  return { session: completed, subscription, invoice };
}

const rateOf = async (account: string, tax: Stripe.Invoice.TotalTax | undefined) =>
  stripe.taxRates.retrieve(String(tax?.tax_rate_details?.tax_rate), {}, { stripeAccount: account });

describe("a subscription made by Checkout with automatic tax", () => {
  it("taxes the first invoice: DE customer, 1000 exclusive → 1190, 19% DE", async () => {
    const account = await taxedSeller([{ country: "DE", type: "standard" }]);
    const { session, subscription, invoice } = await subscribe(account, 1000, "exclusive");
    expect(subscription.automatic_tax).toEqual({
      enabled: true,
      liability: { type: "self" },
      disabled_reason: null,
    });
    expect(invoice.automatic_tax).toEqual({
      enabled: true,
      status: "complete",
      liability: { type: "self" },
      provider: "stripe",
      disabled_reason: null,
    });
    expect(invoice).toMatchObject({
      subtotal: 1000,
      subtotal_excluding_tax: 1000,
      total_excluding_tax: 1000,
      total: 1190,
      amount_due: 1190,
      amount_paid: 1190,
      amount_remaining: 0,
      status: "paid",
      customer_tax_exempt: "none",
      customer_address: expect.objectContaining({ country: "DE", city: "Berlin" }),
    });
    const [tax] = invoice.total_taxes ?? [];
    expect(invoice.total_taxes).toHaveLength(1);
    expect(tax).toEqual({
      amount: 190,
      tax_behavior: "exclusive",
      tax_rate_details: { tax_rate: expect.stringMatching(/^txr_/) },
      taxability_reason: "standard_rated",
      taxable_amount: 1000,
      type: "tax_rate_details",
    });
    expect(invoice.lines.data[0]?.taxes).toEqual([tax]);
    const rate = await rateOf(account, tax);
    expect(rate).toMatchObject({ percentage: 19, country: "DE", jurisdiction: "DE", inclusive: false });
    // The expansion works in the emulator too (not in the SDK's types: `tax_rate` is a string there).
    const expanded = await stripe.invoices.retrieve(
      invoice.id,
      { expand: ["total_taxes.tax_rate_details.tax_rate"] },
      { stripeAccount: account },
    );
    expect(expanded.total_taxes?.[0]?.tax_rate_details?.tax_rate).toMatchObject({
      id: rate.id,
      percentage: 19,
    });

    // The session shows the first invoice's tax.
    expect(session.amount_total).toBe(1190);
    expect(session.total_details).toMatchObject({ amount_tax: 190 });
    expect(session.total_details?.breakdown?.taxes).toEqual([
      {
        amount: 190,
        rate: expect.objectContaining({ id: rate.id }),
        taxability_reason: "standard_rated",
        taxable_amount: 1000,
      },
    ]);
    expect(session.line_items?.data[0]).toMatchObject({ amount_tax: 190, amount_total: 1190 });
    expect(session.line_items?.data[0]?.taxes?.[0]).toMatchObject({ amount: 190 });

    // The charge is for the total, so a full refund gives the tax back.
    const payment = invoice.payments?.data[0]?.payment.payment_intent;
    const intent = await stripe.paymentIntents.retrieve(String(payment), {}, { stripeAccount: account });
    expect(intent.amount).toBe(1190);
    const refund = await stripe.refunds.create({ payment_intent: intent.id }, { stripeAccount: account });
    expect(refund.amount).toBe(1190);
  });

  it("taxes each renewal the same", async () => {
    const account = await taxedSeller([{ country: "DE", type: "standard" }]);
    const { subscription } = await subscribe(account, 1000, "exclusive");
    const renewed = await emulator.control<Stripe.Subscription>(`/subscriptions/${subscription.id}/renew`, {
      outcome: "paid",
    });
    expect(renewed.status).toBe(200);
    const invoice = await stripe.invoices.retrieve(
      String(renewed.body.latest_invoice),
      {},
      { stripeAccount: account },
    );
    expect(invoice.billing_reason).toBe("subscription_cycle");
    expect(invoice).toMatchObject({ total: 1190, amount_paid: 1190, status: "paid" });
    expect(invoice.automatic_tax.status).toBe("complete");
    expect(invoice.total_taxes?.[0]).toMatchObject({ amount: 190, taxability_reason: "standard_rated" });
    const rate = await rateOf(account, invoice.total_taxes?.[0]);
    expect(rate).toMatchObject({ percentage: 19, country: "DE" });
  });

  it("not registered: not_collecting, 0, with the place recorded", async () => {
    const account = await taxedSeller([]);
    const { session, invoice } = await subscribe(account, 1000, "exclusive");
    expect(invoice).toMatchObject({ total: 1000, amount_paid: 1000 });
    expect(invoice.total_taxes).toEqual([
      expect.objectContaining({ amount: 0, taxability_reason: "not_collecting", taxable_amount: 0 }),
    ]);
    const rate = await rateOf(account, invoice.total_taxes?.[0]);
    expect(rate).toMatchObject({ percentage: 0, country: "DE" });
    expect(session.total_details?.amount_tax).toBe(0);
    expect(session.amount_total).toBe(1000);
  });

  it("inclusive 1000 → tax 160 inside a total of 1000", async () => {
    const account = await taxedSeller([{ country: "DE", type: "standard" }]);
    const { session, invoice } = await subscribe(account, 1000, "inclusive");
    expect(invoice).toMatchObject({
      subtotal: 1000,
      subtotal_excluding_tax: 840,
      total_excluding_tax: 840,
      total: 1000,
      amount_paid: 1000,
    });
    expect(invoice.total_taxes?.[0]).toMatchObject({
      amount: 160,
      tax_behavior: "inclusive",
      taxable_amount: 840,
    });
    const rate = await rateOf(account, invoice.total_taxes?.[0]);
    expect(rate).toMatchObject({ percentage: 19, inclusive: true });
    expect(session).toMatchObject({ amount_total: 1000, total_details: { amount_tax: 160 } });
  });

  it("no tax_behavior on the price: exclusive by default", async () => {
    const account = await taxedSeller([{ country: "DE", type: "standard" }]);
    const { invoice } = await subscribe(account, 1000, undefined);
    expect(invoice.total).toBe(1190);
    expect(invoice.total_taxes?.[0]?.tax_behavior).toBe("exclusive");
  });

  it("a business with an EU VAT number: reverse charge, 0", async () => {
    const account = await taxedSeller([{ country: "DE", type: "oss_union" }]);
    const { invoice } = await subscribe(account, 1000, "exclusive", {
      address: { country: "FR", postal_code: "75001", line1: "1 rue de Rivoli", city: "Paris" },
      taxId: "FR12345678901",
    });
    expect(invoice.total).toBe(1000);
    expect(invoice.customer_tax_ids).toEqual([{ type: "eu_vat", value: "FR12345678901" }]);
    expect(invoice.total_taxes?.[0]).toMatchObject({
      amount: 0,
      taxability_reason: "reverse_charge",
      taxable_amount: 1000,
    });
  });

  it("a business customer made before Checkout: gets the typed email and address, and each invoice is reverse charged", async () => {
    const account = await taxedSeller([{ country: "DE", type: "oss_union" }]);
    const scoped = { stripeAccount: account };
    // As a platform makes a checked business buyer: a name, a VAT number, no email, no address.
    const customer = await stripe.customers.create(
      {
        name: "Atelier SARL",
        tax_id_data: [{ type: "eu_vat", value: "FR40303265045" }],
        tax_exempt: "reverse",
      },
      scoped,
    );
    const price = await stripe.prices.create(
      {
        currency: "eur",
        unit_amount: 1000,
        recurring: { interval: "month" },
        tax_behavior: "exclusive",
        product_data: { name: "Supporter membership", tax_code: "txcd_10302000" },
      },
      scoped,
    );
    expect(price.tax_behavior).toBe("exclusive");
    const session = await stripe.checkout.sessions.create(
      {
        mode: "subscription",
        automatic_tax: { enabled: true },
        billing_address_collection: "required",
        customer: customer.id,
        customer_update: { address: "auto", name: "auto" },
        consent_collection: { terms_of_service: "required" },
        line_items: [{ price: price.id, quantity: 1 }],
        success_url: "http://127.0.0.1:9/joined",
      },
      scoped,
    );
    const paid = await emulator.control<Stripe.Checkout.Session>(
      `/checkout/sessions/${session.id}/complete`,
      {
        email: "compta@example.fr",
        name: "Claire Martin",
        address: { country: "FR", postal_code: "75001", line1: "1 rue de Rivoli", city: "Paris" },
      },
    );
    expect(paid.status).toBe(200);
    const updated = await stripe.customers.retrieve(customer.id, {}, scoped);
    expect(updated).toMatchObject({
      email: "compta@example.fr",
      address: expect.objectContaining({ country: "FR" }),
    });
    const completed = await stripe.checkout.sessions.retrieve(session.id, {}, scoped);
    expect(completed.consent?.terms_of_service).toBe("accepted");
    const invoice = await stripe.invoices.retrieve(String(completed.invoice), {}, scoped);
    expect(invoice).toMatchObject({
      total: 1000,
      customer_email: "compta@example.fr",
      customer_tax_exempt: "reverse",
    });
    expect(invoice.total_taxes?.[0]).toMatchObject({ amount: 0, taxability_reason: "reverse_charge" });
    const renewed = await emulator.control<Stripe.Subscription>(
      `/subscriptions/${String(completed.subscription)}/renew`,
      { outcome: "paid" },
    );
    const renewal = await stripe.invoices.retrieve(String(renewed.body.latest_invoice), {}, scoped);
    expect(renewal.total_taxes?.[0]).toMatchObject({ amount: 0, taxability_reason: "reverse_charge" });
  });

  it("a trial's $0 invoice has a 0 tax entry; the first paid period is taxed", async () => {
    const account = await taxedSeller([{ country: "DE", type: "standard" }]);
    const { session, subscription, invoice } = await subscribe(account, 1000, "exclusive", { trialDays: 7 });
    expect(invoice).toMatchObject({ total: 0, amount_paid: 0 });
    expect(invoice.total_taxes).toEqual([
      expect.objectContaining({ amount: 0, taxability_reason: "standard_rated", taxable_amount: 0 }),
    ]);
    expect(session).toMatchObject({ amount_total: 0, total_details: { amount_tax: 0 } });
    const renewed = await emulator.control<Stripe.Subscription>(`/subscriptions/${subscription.id}/renew`, {
      outcome: "paid",
    });
    const first = await stripe.invoices.retrieve(
      String(renewed.body.latest_invoice),
      {},
      { stripeAccount: account },
    );
    expect(first).toMatchObject({ total: 1190, amount_paid: 1190 });
  });

  it("prorations: an upgrade's invoice taxes the charge and credits the unused time's tax", async () => {
    const account = await taxedSeller([{ country: "DE", type: "standard" }]);
    const scoped = { stripeAccount: account };
    const { subscription } = await subscribe(account, 1000, "exclusive");
    const patron = await stripe.prices.create(
      {
        currency: "eur",
        unit_amount: 2000,
        recurring: { interval: "month" },
        tax_behavior: "exclusive",
        product_data: { name: "Patron membership" },
      },
      scoped,
    );
    const item = subscription.items.data[0];
    const preview = await stripe.invoices.createPreview(
      {
        subscription: subscription.id,
        subscription_details: {
          items: [{ id: String(item?.id), price: patron.id }],
          proration_behavior: "always_invoice",
        },
      },
      scoped,
    );
    expect(preview.automatic_tax.status).toBe("complete");
    const updated = await stripe.subscriptions.update(
      subscription.id,
      { items: [{ id: String(item?.id), price: patron.id }], proration_behavior: "always_invoice" },
      scoped,
    );
    const invoice = await stripe.invoices.retrieve(String(updated.latest_invoice), {}, scoped);
    expect(invoice.billing_reason).toBe("subscription_update");
    const lineTaxes = invoice.lines.data.map((line) => line.taxes?.[0]?.amount ?? 0);
    invoice.lines.data.forEach((line) => {
      expect(line.taxes?.[0]?.amount).toBe(Math.sign(line.amount) * Math.round(Math.abs(line.amount) * 0.19));
    });
    expect(invoice.lines.data.some((line) => (line.taxes?.[0]?.amount ?? 0) < 0)).toBe(true);
    const tax = lineTaxes.reduce((sum, amount) => sum + amount, 0);
    expect(invoice.total_taxes?.reduce((sum, entry) => sum + entry.amount, 0)).toBe(tax);
    expect(invoice.total).toBe(invoice.subtotal + tax);
    expect(invoice.amount_paid).toBe(invoice.total);
    expect(preview.total).toBe(invoice.total);
  });
});
