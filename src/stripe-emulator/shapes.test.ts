import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createMembershipSession,
  createPurchaseSession,
  startTestEmulator,
  type TestEmulator,
} from "./test-support.js";

// The key sets of the objects the membership features answer, against Stripe's published shapes. Each
// list below is checked by the compiler to be exactly the required keys of the SDK's type for API
// 2026-10-28 (generated from Stripe's OpenAPI spec), and matches the example object of the same name in
// stripe/openapi's fixtures3.json, except where noted. At run time every answered object must have all
// of them and nothing else but the optional keys named beside it.

/** The keys a type always has (optional ones, such as includable fields, left out). */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type KeyList<T> = Record<RequiredKeys<T>, true>;

const COUPON = {
  id: true,
  object: true,
  amount_off: true,
  created: true,
  currency: true,
  duration: true,
  duration_in_months: true,
  livemode: true,
  max_redemptions: true,
  metadata: true,
  name: true,
  percent_off: true,
  redeem_by: true,
  times_redeemed: true,
  valid: true,
} satisfies KeyList<Stripe.Coupon>;

const DISCOUNT = {
  id: true,
  object: true,
  checkout_session: true,
  customer: true,
  customer_account: true,
  end: true,
  invoice: true,
  invoice_item: true,
  promotion_code: true,
  source: true,
  start: true,
  subscription: true,
  subscription_item: true,
} satisfies KeyList<Stripe.Discount>;

const DISCOUNT_SOURCE = { coupon: true, type: true } satisfies KeyList<Stripe.Discount.Source>;

const INVOICE_PAYMENT = {
  id: true,
  object: true,
  amount_paid: true,
  amount_requested: true,
  created: true,
  currency: true,
  invoice: true,
  is_default: true,
  livemode: true,
  payment: true,
  status: true,
  status_transitions: true,
} satisfies KeyList<Stripe.InvoicePayment>;

// fixtures3.json's example also shows `net_amount`, optional in the SDK's type; the emulator adds the
// optional `proration_details` to prorations.
const INVOICE_ITEM = {
  id: true,
  object: true,
  amount: true,
  currency: true,
  customer: true,
  customer_account: true,
  date: true,
  description: true,
  discountable: true,
  discounts: true,
  invoice: true,
  livemode: true,
  metadata: true,
  parent: true,
  period: true,
  pricing: true,
  proration: true,
  quantity: true,
  quantity_decimal: true,
  tax_rates: true,
  test_clock: true,
} satisfies KeyList<Stripe.InvoiceItem>;

// fixtures3.json's example invoice still has the top-level `subscription` that API 2025-03-31 moved to
// `parent.subscription_details`; the SDK's type for 2026-10-28 has no such key. The example's
// `auto_advance`, `customer_tax_ids`, `hosted_invoice_url` and `invoice_pdf` are optional in the SDK's
// type; the emulator always sends them, as Stripe does.
const INVOICE = {
  id: true,
  object: true,
  account_country: true,
  account_name: true,
  account_tax_ids: true,
  amount_due: true,
  amount_overpaid: true,
  amount_paid: true,
  amount_remaining: true,
  amount_shipping: true,
  application: true,
  attempt_count: true,
  attempted: true,
  automatic_tax: true,
  automatically_finalizes_at: true,
  billing_reason: true,
  collection_method: true,
  created: true,
  currency: true,
  custom_fields: true,
  customer: true,
  customer_account: true,
  customer_address: true,
  customer_email: true,
  customer_name: true,
  customer_phone: true,
  customer_shipping: true,
  customer_tax_exempt: true,
  default_payment_method: true,
  default_source: true,
  default_tax_rates: true,
  description: true,
  discounts: true,
  due_date: true,
  effective_at: true,
  ending_balance: true,
  footer: true,
  from_invoice: true,
  issuer: true,
  last_finalization_error: true,
  latest_revision: true,
  lines: true,
  livemode: true,
  metadata: true,
  next_payment_attempt: true,
  number: true,
  on_behalf_of: true,
  parent: true,
  payment_settings: true,
  period_end: true,
  period_start: true,
  post_payment_credit_notes_amount: true,
  pre_payment_credit_notes_amount: true,
  receipt_number: true,
  rendering: true,
  shipping_cost: true,
  shipping_details: true,
  starting_balance: true,
  statement_descriptor: true,
  status: true,
  status_transitions: true,
  subtotal: true,
  subtotal_excluding_tax: true,
  test_clock: true,
  total: true,
  total_discount_amounts: true,
  total_excluding_tax: true,
  total_pretax_credit_amounts: true,
  total_taxes: true,
  webhooks_delivered_at: true,
} satisfies KeyList<Stripe.Invoice>;

const INVOICE_OPTIONAL = ["auto_advance", "customer_tax_ids", "hosted_invoice_url", "invoice_pdf"];

const TOTAL_DISCOUNT_AMOUNT = {
  amount: true,
  discount: true,
} satisfies KeyList<Stripe.Invoice.TotalDiscountAmount>;

const SUBSCRIPTION_ITEM_DETAILS = {
  invoice_item: true,
  proration: true,
  proration_details: true,
  subscription: true,
  subscription_item: true,
} satisfies KeyList<Stripe.InvoiceLineItem.Parent.SubscriptionItemDetails>;

const PORTAL_FLOW = {
  after_completion: true,
  customer_update: true,
  subscription_cancel: true,
  subscription_pause: true,
  subscription_update: true,
  subscription_update_confirm: true,
  type: true,
} satisfies KeyList<Stripe.BillingPortal.Session.Flow>;

const SESSION_DISCOUNT = {
  coupon: true,
  promotion_code: true,
} satisfies KeyList<Stripe.Checkout.Session.Discount>;

// fixtures3.json's example dispute predates `intended_submission_method` and
// `evidence_details.submission_method`, which the SDK's type requires; it shows the optional
// `payment_method_details`, which the emulator sends too (`network_reason_code` it leaves out, as the
// example does).
const DISPUTE = {
  id: true,
  object: true,
  amount: true,
  balance_transactions: true,
  charge: true,
  created: true,
  currency: true,
  enhanced_eligibility_types: true,
  evidence: true,
  evidence_details: true,
  intended_submission_method: true,
  is_charge_refundable: true,
  livemode: true,
  metadata: true,
  payment_intent: true,
  reason: true,
  status: true,
} satisfies KeyList<Stripe.Dispute>;

const DISPUTE_OPTIONAL = ["payment_method_details"];

const DISPUTE_EVIDENCE = {
  access_activity_log: true,
  billing_address: true,
  cancellation_policy: true,
  cancellation_policy_disclosure: true,
  cancellation_rebuttal: true,
  customer_communication: true,
  customer_email_address: true,
  customer_name: true,
  customer_purchase_ip: true,
  customer_signature: true,
  duplicate_charge_documentation: true,
  duplicate_charge_explanation: true,
  duplicate_charge_id: true,
  enhanced_evidence: true,
  product_description: true,
  receipt: true,
  refund_policy: true,
  refund_policy_disclosure: true,
  refund_refusal_explanation: true,
  service_date: true,
  service_documentation: true,
  shipping_address: true,
  shipping_carrier: true,
  shipping_date: true,
  shipping_documentation: true,
  shipping_tracking_number: true,
  uncategorized_file: true,
  uncategorized_text: true,
} satisfies KeyList<Stripe.Dispute.Evidence>;

const DISPUTE_EVIDENCE_DETAILS = {
  due_by: true,
  enhanced_eligibility: true,
  has_evidence: true,
  past_due: true,
  submission_count: true,
  submission_method: true,
} satisfies KeyList<Stripe.Dispute.EvidenceDetails>;

const DISPUTE_CARD = {
  brand: true,
  case_type: true,
  network: true,
  network_reason_code: true,
} satisfies KeyList<Stripe.Dispute.PaymentMethodDetails.Card>;

const BALANCE_TRANSACTION = {
  id: true,
  object: true,
  amount: true,
  available_on: true,
  balance_type: true,
  created: true,
  currency: true,
  description: true,
  exchange_rate: true,
  fee: true,
  fee_details: true,
  net: true,
  reporting_category: true,
  source: true,
  status: true,
  type: true,
} satisfies KeyList<Stripe.BalanceTransaction>;

// fixtures3.json's example `tax.settings` and `tax.registration` match these; a registration's
// `country_options` holds only its own country's entry.
const TAX_SETTINGS = {
  object: true,
  defaults: true,
  head_office: true,
  livemode: true,
  status: true,
  status_details: true,
} satisfies KeyList<Stripe.Tax.Settings>;

const TAX_SETTINGS_DEFAULTS = {
  provider: true,
  tax_behavior: true,
  tax_code: true,
} satisfies KeyList<Stripe.Tax.Settings.Defaults>;

const ADDRESS = {
  city: true,
  country: true,
  line1: true,
  line2: true,
  postal_code: true,
  state: true,
} satisfies KeyList<Stripe.Address>;

const TAX_REGISTRATION = {
  id: true,
  object: true,
  active_from: true,
  country: true,
  country_options: true,
  created: true,
  expires_at: true,
  livemode: true,
  status: true,
} satisfies KeyList<Stripe.Tax.Registration>;

const TAX_RATE = {
  id: true,
  object: true,
  active: true,
  country: true,
  created: true,
  description: true,
  display_name: true,
  effective_percentage: true,
  flat_amount: true,
  inclusive: true,
  jurisdiction: true,
  jurisdiction_level: true,
  livemode: true,
  metadata: true,
  percentage: true,
  rate_type: true,
  state: true,
  tax_type: true,
} satisfies KeyList<Stripe.TaxRate>;

const TAX_ID = {
  id: true,
  object: true,
  country: true,
  created: true,
  customer: true,
  customer_account: true,
  livemode: true,
  owner: true,
  type: true,
  value: true,
  verification: true,
} satisfies KeyList<Stripe.TaxId>;

// The example session in fixtures3.json predates some fields the SDK's type for 2026-10-28 requires
// (`integration_identifier`, `managed_payments`, `origin_context`, …); the SDK's type is the reference.
const CHECKOUT_SESSION = {
  id: true,
  object: true,
  adaptive_pricing: true,
  after_expiration: true,
  allow_promotion_codes: true,
  allowed_payment_method_types: true,
  amount_subtotal: true,
  amount_total: true,
  automatic_tax: true,
  billing_address_collection: true,
  cancel_url: true,
  client_reference_id: true,
  client_secret: true,
  collected_information: true,
  consent: true,
  consent_collection: true,
  created: true,
  currency: true,
  currency_conversion: true,
  custom_fields: true,
  custom_text: true,
  customer: true,
  customer_account: true,
  customer_creation: true,
  customer_details: true,
  customer_email: true,
  discounts: true,
  expires_at: true,
  integration_identifier: true,
  invoice: true,
  invoice_creation: true,
  livemode: true,
  locale: true,
  managed_payments: true,
  metadata: true,
  mode: true,
  origin_context: true,
  payment_intent: true,
  payment_link: true,
  payment_method_collection: true,
  payment_method_configuration_details: true,
  payment_method_options: true,
  payment_method_types: true,
  payment_status: true,
  permissions: true,
  recovered_from: true,
  saved_payment_method_options: true,
  setup_intent: true,
  shipping_address_collection: true,
  shipping_cost: true,
  shipping_options: true,
  status: true,
  submit_type: true,
  subscription: true,
  success_url: true,
  total_details: true,
  ui_mode: true,
  url: true,
  wallet_options: true,
} satisfies KeyList<Stripe.Checkout.Session>;

/** Optional in the SDK's type; Stripe sends them on every session, and so does the emulator. */
const CHECKOUT_SESSION_OPTIONAL = ["phone_number_collection", "tax_id_collection"];

const SESSION_AUTOMATIC_TAX = {
  enabled: true,
  liability: true,
  provider: true,
  status: true,
} satisfies KeyList<Stripe.Checkout.Session.AutomaticTax>;

const SESSION_CUSTOMER_DETAILS = {
  address: true,
  business_name: true,
  email: true,
  individual_name: true,
  name: true,
  phone: true,
  tax_exempt: true,
  tax_ids: true,
} satisfies KeyList<Stripe.Checkout.Session.CustomerDetails>;

const SESSION_TOTAL_DETAILS = {
  amount_discount: true,
  amount_shipping: true,
  amount_tax: true,
} satisfies KeyList<Stripe.Checkout.Session.TotalDetails>;

const BREAKDOWN = {
  discounts: true,
  taxes: true,
} satisfies KeyList<Stripe.Checkout.Session.TotalDetails.Breakdown>;

const BREAKDOWN_TAX = {
  amount: true,
  rate: true,
  taxability_reason: true,
  taxable_amount: true,
} satisfies KeyList<Stripe.Checkout.Session.TotalDetails.Breakdown.Tax>;

const CONSENT = {
  promotions: true,
  terms_of_service: true,
} satisfies KeyList<Stripe.Checkout.Session.Consent>;

const CONSENT_COLLECTION = {
  payment_method_reuse_agreement: true,
  promotions: true,
  terms_of_service: true,
} satisfies KeyList<Stripe.Checkout.Session.ConsentCollection>;

const CUSTOM_TEXT = {
  after_submit: true,
  shipping_address: true,
  submit: true,
  terms_of_service_acceptance: true,
} satisfies KeyList<Stripe.Checkout.Session.CustomText>;

const LINE_ITEM = {
  id: true,
  object: true,
  adjustable_quantity: true,
  amount_discount: true,
  amount_subtotal: true,
  amount_tax: true,
  amount_total: true,
  currency: true,
  description: true,
  metadata: true,
  price: true,
  quantity: true,
} satisfies KeyList<Stripe.LineItem>;

const INVOICE_AUTOMATIC_TAX = {
  disabled_reason: true,
  enabled: true,
  liability: true,
  provider: true,
  status: true,
} satisfies KeyList<Stripe.Invoice.AutomaticTax>;

const INVOICE_TOTAL_TAX = {
  amount: true,
  tax_behavior: true,
  tax_rate_details: true,
  taxability_reason: true,
  taxable_amount: true,
  type: true,
} satisfies KeyList<Stripe.Invoice.TotalTax>;

const INVOICE_LINE_TAX = {
  amount: true,
  tax_behavior: true,
  tax_rate_details: true,
  taxability_reason: true,
  taxable_amount: true,
  type: true,
} satisfies KeyList<Stripe.InvoiceLineItem.Tax>;

const SUBSCRIPTION_AUTOMATIC_TAX = {
  disabled_reason: true,
  enabled: true,
  liability: true,
} satisfies KeyList<Stripe.Subscription.AutomaticTax>;

const CUSTOMER_TAX_ID = { type: true, value: true } satisfies KeyList<Stripe.Invoice.CustomerTaxId>;

const COUNTRY_SPEC = {
  id: true,
  object: true,
  default_currency: true,
  supported_bank_account_currencies: true,
  supported_payment_currencies: true,
  supported_payment_methods: true,
  supported_transfer_countries: true,
  verification_fields: true,
} satisfies KeyList<Stripe.CountrySpec>;

const VERIFICATION_FIELDS = {
  company: true,
  individual: true,
} satisfies KeyList<Stripe.CountrySpec.VerificationFields>;

const VERIFICATION_FIELD_LISTS = {
  additional: true,
  minimum: true,
} satisfies KeyList<Stripe.CountrySpec.VerificationFields.Individual>;

/** A session paid in the buyer's currency with Adaptive Pricing has this optional hash. */
const PRESENTMENT_DETAILS = {
  presentment_amount: true,
  presentment_currency: true,
} satisfies KeyList<Stripe.Checkout.Session.PresentmentDetails>;

/** A subscription paid with Adaptive Pricing names the currency its customer pays in. */
const SUBSCRIPTION_PRESENTMENT_DETAILS = {
  presentment_currency: true,
} satisfies KeyList<Stripe.Subscription.PresentmentDetails>;

function expectKeys(object: object | null | undefined, expected: object, optional: string[] = []) {
  const keys = Object.keys(object ?? {});
  expect(keys.filter((key) => !optional.includes(key)).sort()).toEqual(Object.keys(expected).sort());
}

let emulator: TestEmulator;
let stripe: Stripe;

beforeAll(async () => {
  emulator = await startTestEmulator();
  stripe = emulator.stripe;
});
afterAll(() => emulator.close());

describe("the shapes of the membership objects", () => {
  it("coupons, discounts, invoices, invoice payments and items, previews and portal flows", async () => {
    const account = await stripe.accounts.create({ type: "standard" });
    const scoped = { stripeAccount: account.id };
    const coupon = await stripe.coupons.create({ percent_off: 10, duration: "forever" }, scoped);
    expectKeys(coupon, COUPON);

    const { session, price } = await createMembershipSession(stripe, account.id, {
      discounts: [{ coupon: coupon.id }],
    });
    expectKeys(session.discounts?.[0], SESSION_DISCOUNT);
    await emulator.control(`/checkout/sessions/${session.id}/complete`, {});
    const done = await stripe.checkout.sessions.retrieve(session.id, {}, scoped);
    const subscription = await stripe.subscriptions.retrieve(
      String(done.subscription),
      { expand: ["discounts"] },
      scoped,
    );
    const discount = subscription.discounts[0] as Stripe.Discount;
    expectKeys(discount, DISCOUNT);
    expectKeys(discount.source, DISCOUNT_SOURCE);

    const invoice = await stripe.invoices.retrieve(String(subscription.latest_invoice), {}, scoped);
    expectKeys(invoice, INVOICE, INVOICE_OPTIONAL);
    expectKeys(invoice.total_discount_amounts?.[0], TOTAL_DISCOUNT_AMOUNT);
    expectKeys(invoice.lines.data[0]?.parent?.subscription_item_details, SUBSCRIPTION_ITEM_DETAILS);
    const withPayments = await stripe.invoices.retrieve(invoice.id, { expand: ["payments"] }, scoped);
    expectKeys(withPayments, INVOICE, [...INVOICE_OPTIONAL, "payments"]);
    expectKeys(withPayments.payments?.data[0], INVOICE_PAYMENT);
    expect(Object.keys(withPayments.payments?.data[0]?.payment ?? {}).sort()).toEqual([
      "payment_intent",
      "type",
    ]);

    const item = subscription.items.data[0];
    const dearer = await stripe.prices.create(
      { currency: "usd", unit_amount: 900, recurring: { interval: "month" }, product: String(price.product) },
      scoped,
    );
    await stripe.subscriptions.update(
      subscription.id,
      { items: [{ id: item?.id ?? "", price: dearer.id }], proration_behavior: "create_prorations" },
      scoped,
    );
    const [pending] = (await stripe.invoiceItems.list({ pending: true }, scoped)).data;
    expectKeys(pending, INVOICE_ITEM, ["proration_details"]);

    const preview = await stripe.invoices.createPreview({ subscription: subscription.id }, scoped);
    expectKeys(preview, INVOICE, INVOICE_OPTIONAL);

    const portal = await stripe.billingPortal.sessions.create(
      {
        customer: String(subscription.customer),
        flow_data: { type: "subscription_update", subscription_update: { subscription: subscription.id } },
      },
      scoped,
    );
    expectKeys(portal.flow, PORTAL_FLOW);
  });
});

describe("the shapes of disputes", () => {
  it("a dispute, its evidence, its card details and its balance transactions, won", async () => {
    const account = await stripe.accounts.create({ type: "standard" });
    const scoped = { stripeAccount: account.id };
    const session = await createPurchaseSession(stripe, account.id);
    await emulator.control(`/checkout/sessions/${session.id}/complete`, {});
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ["payment_intent"] }, scoped);
    const charge = String((done.payment_intent as Stripe.PaymentIntent).latest_charge);
    const { body: opened } = await emulator.control<Stripe.Dispute>(`/charges/${charge}/dispute`, {});
    await emulator.control(`/disputes/${opened.id}/resolve`, { outcome: "won" });

    const dispute = await stripe.disputes.retrieve(opened.id, {}, scoped);
    expectKeys(dispute, DISPUTE, DISPUTE_OPTIONAL);
    expectKeys(dispute.evidence, DISPUTE_EVIDENCE);
    expectKeys(dispute.evidence_details, DISPUTE_EVIDENCE_DETAILS);
    expect(Object.keys(dispute.payment_method_details ?? {}).sort()).toEqual(["card", "type"]);
    expectKeys(dispute.payment_method_details?.card, DISPUTE_CARD);
    expect(dispute.balance_transactions).toHaveLength(2);
    for (const transaction of dispute.balance_transactions) expectKeys(transaction, BALANCE_TRANSACTION);
  });
});

describe("the shapes of Stripe Tax", () => {
  it("tax settings, registrations, a taxed session with its breakdown, line item taxes and the customer's tax ids", async () => {
    const account = await stripe.accounts.create({ type: "standard" });
    const scoped = { stripeAccount: account.id };
    const pending = await stripe.tax.settings.retrieve({}, scoped);
    expectKeys(pending, TAX_SETTINGS);
    expectKeys(pending.defaults, TAX_SETTINGS_DEFAULTS);
    expect(Object.keys(pending.status_details)).toEqual(["pending"]);
    const active = await stripe.tax.settings.update({ head_office: { address: { country: "DE" } } }, scoped);
    expectKeys(active.head_office?.address, ADDRESS);
    expect(Object.keys(active.status_details)).toEqual(["active"]);

    const registration = await stripe.tax.registrations.create(
      { country: "DE", country_options: { de: { type: "standard" } }, active_from: "now" },
      scoped,
    );
    expectKeys(registration, TAX_REGISTRATION);
    expect(registration.country_options).toEqual({
      de: { standard: { place_of_supply_scheme: "standard" }, type: "standard" },
    });

    const customer = await stripe.customers.create(
      {
        email: "firma@example.com",
        address: { country: "DE", postal_code: "10115" },
        tax_id_data: [{ type: "eu_vat", value: "DE123456789" }],
      },
      scoped,
    );
    const withTaxIds = (await stripe.customers.retrieve(
      customer.id,
      { expand: ["tax_ids"] },
      scoped,
    )) as Stripe.Customer;
    expectKeys(withTaxIds.tax_ids?.data[0], TAX_ID);
    expectKeys(withTaxIds.address, ADDRESS);

    const coupon = await stripe.coupons.create({ amount_off: 100, currency: "eur" }, scoped);
    const session = await createPurchaseSession(stripe, account.id, {
      automatic_tax: { enabled: true },
      consent_collection: { terms_of_service: "required" },
      custom_text: { submit: { message: "Thanks" } },
      tax_id_collection: { enabled: true },
      discounts: [{ coupon: coupon.id }],
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: "eur",
            unit_amount: 2000,
            tax_behavior: "inclusive",
            product_data: { name: "Stems" },
          },
        },
      ],
    });
    await emulator.control(`/checkout/sessions/${session.id}/complete`, {
      name: "Erika",
      address: { country: "DE", postal_code: "10115" },
      terms_of_service: true,
    });
    const done = await stripe.checkout.sessions.retrieve(
      session.id,
      { expand: ["total_details.breakdown"] },
      scoped,
    );
    expectKeys(done, CHECKOUT_SESSION, CHECKOUT_SESSION_OPTIONAL);
    expectKeys(done.automatic_tax, SESSION_AUTOMATIC_TAX);
    expectKeys(done.customer_details, SESSION_CUSTOMER_DETAILS);
    expectKeys(done.customer_details?.address, ADDRESS);
    expectKeys(done.consent, CONSENT);
    expectKeys(done.consent_collection, CONSENT_COLLECTION);
    expectKeys(done.custom_text, CUSTOM_TEXT);
    expectKeys(done.total_details, SESSION_TOTAL_DETAILS, ["breakdown"]);
    expectKeys(done.total_details?.breakdown, BREAKDOWN);
    expectKeys(done.total_details?.breakdown?.taxes[0], BREAKDOWN_TAX);
    expectKeys(done.total_details?.breakdown?.taxes[0]?.rate, TAX_RATE);
    expectKeys(done.total_details?.breakdown?.discounts[0]?.discount, DISCOUNT);
    const plain = await stripe.checkout.sessions.retrieve(session.id, {}, scoped);
    expectKeys(plain.total_details, SESSION_TOTAL_DETAILS);

    const items = await stripe.checkout.sessions.listLineItems(
      session.id,
      { expand: ["data.taxes"] },
      scoped,
    );
    expectKeys(items.data[0], LINE_ITEM, ["taxes"]);
    expectKeys(items.data[0]?.taxes?.[0], BREAKDOWN_TAX);
    expectKeys(items.data[0]?.taxes?.[0]?.rate, TAX_RATE);
  });

  it("a taxed subscription: its automatic_tax, its invoice's total_taxes and line taxes, the tax rate", async () => {
    const account = await stripe.accounts.create({ type: "standard" });
    const scoped = { stripeAccount: account.id };
    await stripe.tax.settings.update({ head_office: { address: { country: "DE" } } }, scoped);
    await stripe.tax.registrations.create(
      { country: "DE", country_options: { de: { type: "standard" } }, active_from: "now" },
      scoped,
    );
    const { session } = await createMembershipSession(stripe, account.id, {
      automatic_tax: { enabled: true },
      tax_id_collection: { enabled: true },
    });
    await emulator.control(`/checkout/sessions/${session.id}/complete`, {
      name: "Erika",
      address: { country: "DE", postal_code: "10115" },
      business: true,
      business_name: "Muster GmbH",
      tax_id: "DE123456789",
    });
    const done = await stripe.checkout.sessions.retrieve(session.id, {}, scoped);
    const subscription = await stripe.subscriptions.retrieve(String(done.subscription), {}, scoped);
    expectKeys(subscription.automatic_tax, SUBSCRIPTION_AUTOMATIC_TAX);
    const invoice = await stripe.invoices.retrieve(String(done.invoice), {}, scoped);
    expectKeys(invoice, INVOICE, INVOICE_OPTIONAL);
    expectKeys(invoice.automatic_tax, INVOICE_AUTOMATIC_TAX);
    expectKeys(invoice.customer_address, ADDRESS);
    expectKeys(invoice.customer_tax_ids?.[0], CUSTOMER_TAX_ID);
    expectKeys(invoice.total_taxes?.[0], INVOICE_TOTAL_TAX);
    expectKeys(invoice.lines.data[0]?.taxes?.[0], INVOICE_LINE_TAX);
    const rate = await stripe.taxRates.retrieve(
      String(invoice.total_taxes?.[0]?.tax_rate_details?.tax_rate),
      {},
      scoped,
    );
    expectKeys(rate, TAX_RATE);
    const rates = await stripe.taxRates.list({}, scoped);
    expect(rates.data.map((entry) => entry.id)).toContain(rate.id);
  });
});

describe("the shapes of currencies", () => {
  it("a country spec, and a session paid in the buyer's currency with its converted balance transaction", async () => {
    const spec = await stripe.countrySpecs.retrieve("JP");
    expectKeys(spec, COUNTRY_SPEC);
    expectKeys(spec.verification_fields, VERIFICATION_FIELDS);
    expectKeys(spec.verification_fields.individual, VERIFICATION_FIELD_LISTS);
    expectKeys(spec.verification_fields.company, VERIFICATION_FIELD_LISTS);

    const account = await stripe.accounts.create({ type: "standard" });
    const scoped = { stripeAccount: account.id };
    const session = await createPurchaseSession(stripe, account.id, { adaptive_pricing: { enabled: true } });
    await emulator.control(`/checkout/sessions/${session.id}/complete`, { accept_language: "ja-JP" });
    const done = await stripe.checkout.sessions.retrieve(
      session.id,
      { expand: ["payment_intent.latest_charge.balance_transaction"] },
      scoped,
    );
    expectKeys(done, CHECKOUT_SESSION, [...CHECKOUT_SESSION_OPTIONAL, "presentment_details"]);
    expectKeys(done.presentment_details, PRESENTMENT_DETAILS);
    const intent = done.payment_intent as Stripe.PaymentIntent;
    const charge = intent.latest_charge as Stripe.Charge;
    expectKeys(
      intent.presentment_details,
      PRESENTMENT_DETAILS satisfies KeyList<Stripe.PaymentIntent.PresentmentDetails>,
    );
    expectKeys(
      charge.presentment_details,
      PRESENTMENT_DETAILS satisfies KeyList<Stripe.Charge.PresentmentDetails>,
    );
    const transaction = charge.balance_transaction as Stripe.BalanceTransaction;
    expectKeys(transaction, BALANCE_TRANSACTION);
    expect(transaction.exchange_rate).toEqual(expect.any(Number));
    const refund = await stripe.refunds.create({ payment_intent: intent.id }, scoped);
    expectKeys(
      refund.presentment_details,
      PRESENTMENT_DETAILS satisfies KeyList<Stripe.Refund.PresentmentDetails>,
    );
  });

  it("a subscription paid in the buyer's currency, and its invoice's payment", async () => {
    const account = await stripe.accounts.create({ type: "standard" });
    const scoped = { stripeAccount: account.id };
    const { session } = await createMembershipSession(stripe, account.id, {
      adaptive_pricing: { enabled: true },
    });
    await emulator.control(`/checkout/sessions/${session.id}/complete`, { accept_language: "de-DE" });
    const done = await stripe.checkout.sessions.retrieve(
      session.id,
      { expand: ["subscription", "invoice.payments"] },
      scoped,
    );
    expectKeys(done.presentment_details, PRESENTMENT_DETAILS);
    expectKeys(
      (done.subscription as Stripe.Subscription).presentment_details,
      SUBSCRIPTION_PRESENTMENT_DETAILS,
    );
    const payment = (done.invoice as Stripe.Invoice).payments?.data[0];
    expectKeys(payment, INVOICE_PAYMENT);
    const intent = await stripe.paymentIntents.retrieve(String(payment?.payment.payment_intent), {}, scoped);
    expectKeys(intent.presentment_details, PRESENTMENT_DETAILS);
  });
});
