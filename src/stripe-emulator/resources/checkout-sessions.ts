import type Stripe from "stripe";
import { z } from "zod";
import { customerTaxExempt, expireCheckoutSession, expireIfDue, hasEuVatId } from "../actions/checkout.js";
import { applyCheckoutTax, checkTaxBehaviors, initialTaxRecord } from "../actions/checkout-tax.js";
import { requireActiveTax } from "../actions/tax.js";
import type { ApiCall, ApiRoutes } from "../api.js";
import type { Emulator } from "../emulator.js";
import { invalidRequest, parameterInvalid, parameterMissing, StripeApiError } from "../errors.js";
import { newCheckoutSessionId, newId } from "../ids.js";
import { paginate } from "../lists.js";
import { buildCheckoutSession, buildLineItem } from "../objects/checkout-session.js";
import { couponAmount } from "../objects/coupon.js";
import {
  boolean,
  integer,
  list,
  listParams,
  mergeMetadata,
  metadata,
  parseParams,
  requiredText,
  text,
} from "../params.js";
import type { CheckoutSessionDetails, Scope } from "../state/types.js";
import { checkTrial, sessionCoupon, spreadDiscount } from "./checkout-offers.js";
import { requireSupportedCurrency } from "./country-specs.js";
import { createPrice, priceDataSchema } from "./prices.js";

/** The languages Stripe's Checkout speaks (`locale`; `auto`: the browser's), as the SDK lists them. */
const CHECKOUT_LOCALES = [
  "auto",
  "bg",
  "cs",
  "da",
  "de",
  "el",
  "en",
  "en-GB",
  "es",
  "es-419",
  "et",
  "fi",
  "fil",
  "fr",
  "fr-CA",
  "hi-IN",
  "hr",
  "hu",
  "id",
  "it",
  "ja",
  "ko",
  "lt",
  "lv",
  "ms",
  "mt",
  "nb",
  "nl",
  "pl",
  "pt",
  "pt-BR",
  "ro",
  "ru",
  "sk",
  "sl",
  "sv",
  "th",
  "tr",
  "vi",
  "zh",
  "zh-HK",
  "zh-TW",
] as const satisfies readonly Stripe.Checkout.SessionCreateParams.Locale[];

/** Stripe only accepts `expires_at` between 30 minutes and 24 hours after creation. */
const MIN_LIFETIME_SECONDS = 30 * 60;
const MAX_LIFETIME_SECONDS = 24 * 60 * 60;

const lineItemSchema = z.strictObject({
  price: text().optional(),
  price_data: priceDataSchema.optional(),
  quantity: integer()
    .pipe(z.number().min(1, { error: "parameter_invalid_integer" }))
    .optional(),
  adjustable_quantity: z.strictObject({ enabled: boolean() }).optional(),
});

/** `custom_text[…][message]`, up to 1200 characters; `""` unsets it. */
const customTextSchema = z
  .union([
    z.literal("").transform(() => null),
    z.strictObject({
      message: z.string().max(1200, { error: "custom_text messages can be at most 1200 characters." }),
    }),
  ])
  .optional();

const createSchema = z.strictObject({
  mode: z.enum(["payment", "subscription"]).optional(),
  currency: z
    .string()
    .regex(/^[a-zA-Z]{3}$/)
    .transform((value) => value.toLowerCase())
    .optional(),
  line_items: list(lineItemSchema).optional(),
  success_url: requiredText().optional(),
  cancel_url: requiredText().optional(),
  customer: text().optional(),
  customer_email: text().optional(),
  client_reference_id: text().optional(),
  metadata: metadata().optional(),
  expires_at: integer().optional(),
  locale: z.enum(CHECKOUT_LOCALES).optional(),
  ui_mode: z.enum(["hosted", "hosted_page"]).optional(),
  payment_method_types: list(z.literal("card")).optional(),
  allow_promotion_codes: boolean().optional(),
  billing_address_collection: z.enum(["auto", "required"]).optional(),
  customer_creation: z.enum(["always", "if_required"]).optional(),
  submit_type: z.enum(["auto", "book", "donate", "pay", "subscribe"]).optional(),
  automatic_tax: z
    .strictObject({
      enabled: boolean(),
      liability: z.strictObject({ type: z.enum(["self", "account"]), account: text().optional() }).optional(),
    })
    .optional(),
  tax_id_collection: z
    .strictObject({ enabled: boolean(), required: z.enum(["if_supported", "never"]).optional() })
    .optional(),
  customer_update: z
    .strictObject({
      address: z.enum(["auto", "never"]).optional(),
      name: z.enum(["auto", "never"]).optional(),
      shipping: z.enum(["auto", "never"]).optional(),
    })
    .optional(),
  consent_collection: z
    .strictObject({
      terms_of_service: z.enum(["required", "none"]).optional(),
      promotions: z.enum(["auto", "none"]).optional(),
    })
    .optional(),
  custom_text: z
    .strictObject({
      terms_of_service_acceptance: customTextSchema,
      submit: customTextSchema,
      after_submit: customTextSchema,
      shipping_address: customTextSchema,
    })
    .optional(),
  payment_intent_data: z
    .strictObject({
      metadata: metadata().optional(),
      description: text().optional(),
      receipt_email: text().optional(),
      statement_descriptor: text().optional(),
      statement_descriptor_suffix: text().optional(),
    })
    .optional(),
  subscription_data: z
    .strictObject({
      metadata: metadata().optional(),
      description: text().optional(),
      trial_period_days: integer().optional(),
      trial_end: integer().optional(),
    })
    .optional(),
  discounts: list(
    z.strictObject({ coupon: text().optional(), promotion_code: text().optional() }),
  ).optional(),
  adaptive_pricing: z.strictObject({ enabled: boolean().optional() }).optional(),
});

const listSchema = z.strictObject({
  ...listParams,
  customer: text().optional(),
  payment_intent: text().optional(),
  subscription: text().optional(),
  status: z.enum(["open", "complete", "expired"]).optional(),
});

export function registerCheckoutSessions(routes: ApiRoutes, emulator: Emulator): void {
  const { store } = emulator;
  const getSession = (account: Scope, id: string) => {
    const session = store.get("checkoutSessions", account, id, "checkout.session");
    expireIfDue(emulator, account, session);
    return session;
  };

  routes.post("/v1/checkout/sessions", (call) => createSession(emulator, call));

  routes.get("/v1/checkout/sessions/:id", ({ account, id }) => getSession(account, id));

  routes.get("/v1/checkout/sessions/:id/line_items", ({ account, id, params }) => {
    getSession(account, id);
    const input = parseParams(z.strictObject(listParams), params);
    const lineItems = store.state.checkoutDetails[id]?.lineItems ?? [];
    return paginate(lineItems, input, `/v1/checkout/sessions/${id}/line_items`, "line item");
  });

  routes.post("/v1/checkout/sessions/:id/expire", ({ account, id, origin }) =>
    expireCheckoutSession(emulator, account, getSession(account, id), origin),
  );

  routes.get("/v1/checkout/sessions", ({ account, params }) => {
    const input = parseParams(listSchema, params);
    const sessions = store
      .list("checkoutSessions", account)
      .filter(
        (session) =>
          (input.customer === undefined || session.customer === input.customer) &&
          (input.payment_intent === undefined || session.payment_intent === input.payment_intent) &&
          (input.subscription === undefined || session.subscription === input.subscription) &&
          (input.status === undefined || session.status === input.status),
      );
    return paginate(sessions, input, "/v1/checkout/sessions", "checkout.session");
  });
}

function createSession(emulator: Emulator, { account, params }: ApiCall): Stripe.Checkout.Session {
  const { store } = emulator;
  const input = parseParams(createSchema, params);
  const now = emulator.now();
  if (!input.mode) throw parameterMissing("mode");
  if (!input.line_items || input.line_items.length === 0) throw parameterMissing("line_items");
  if (input.customer && input.customer_email) {
    throw new StripeApiError(
      400,
      "invalid_request_error",
      "You may only specify one of these parameters: customer, customer_email.",
      "parameters_exclusive",
      "customer",
    );
  }
  if (input.mode === "subscription" && input.payment_intent_data) {
    throw invalidRequest(
      "You can not pass `payment_intent_data` in `subscription` mode.",
      "payment_intent_data",
    );
  }
  if (input.mode === "payment" && input.subscription_data) {
    throw invalidRequest("You can not pass `subscription_data` in `payment` mode.", "subscription_data");
  }
  const customer = input.customer
    ? store.get("customers", account, input.customer, "customer", "customer")
    : null;
  checkTaxParams(emulator, account, input, customer);
  const trial = checkTrial(input.subscription_data, now);
  const coupon = sessionCoupon(emulator, account, input);
  const expiresAt = input.expires_at ?? now + MAX_LIFETIME_SECONDS;
  if (expiresAt < now + MIN_LIFETIME_SECONDS) {
    throw parameterInvalid(
      "expires_at",
      "The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.",
      "parameter_invalid_integer",
    );
  }
  if (expiresAt > now + MAX_LIFETIME_SECONDS) {
    throw parameterInvalid(
      "expires_at",
      "The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.",
      "parameter_invalid_integer",
    );
  }

  // Every line is checked before any price is made from `price_data`: a refused request creates nothing.
  const lines = input.line_items.map((item, index) =>
    checkLine(emulator, account, item, `line_items[${index}]`),
  );
  for (const line of lines) {
    if (input.mode === "payment" && lineRecurring(line)) {
      throw invalidRequest(
        "You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.",
        `${line.param}[price]`,
      );
    }
  }
  if (new Set(lines.map(lineCurrency)).size > 1) {
    throw invalidRequest("All line items must use the same currency.", "line_items");
  }
  // The session's `currency` picks among a price's currencies; the emulator's prices have one each
  // (no `currency_options`), so it must be theirs.
  if (input.currency !== undefined) {
    requireSupportedCurrency(emulator, account, input.currency, "currency");
    const other = lines.find((line) => lineCurrency(line) !== input.currency);
    if (other) {
      throw invalidRequest(
        `The price specified supports currencies of \`${lineCurrency(other)}\` which doesn't include the expected currency of \`${input.currency}\`.`,
        "price" in other ? `${other.param}[price]` : `${other.param}[price_data][currency]`,
      );
    }
  }
  if (input.mode === "subscription" && !lines.some(lineRecurring)) {
    throw invalidRequest(
      "You must provide at least one recurring price in `subscription` mode when using prices.",
      "line_items",
    );
  }

  const currency = lines.map(lineCurrency)[0] ?? "usd";
  if (coupon?.amount_off !== null && coupon?.currency && coupon.currency !== currency) {
    throw invalidRequest(
      `The coupon ${coupon.id} is in ${coupon.currency} but the session is in ${currency}.`,
      "discounts[0][coupon]",
    );
  }

  const taxed = input.automatic_tax?.enabled === true && input.mode === "payment";
  if (taxed) {
    checkTaxBehaviors(
      emulator,
      account,
      lines.map((line) => ({
        taxBehavior: "price" in line ? line.price.tax_behavior : line.priceData.tax_behavior,
        param: line.param,
      })),
      currency,
    );
  }

  const id = newCheckoutSessionId();
  const lineItems = lines.map((line) => {
    const price =
      "price" in line
        ? line.price
        : createPrice(
            emulator,
            account,
            { ...line.priceData, active: false },
            `${line.param}[price_data][product]`,
          );
    const productId = typeof price.product === "string" ? price.product : price.product.id;
    const productName = store.find("products", account, productId)?.name ?? productId;
    return buildLineItem(newId("li"), price, line.quantity, productName);
  });
  const subtotal = lineItems.reduce((sum, item) => sum + item.amount_subtotal, 0);
  const discount = coupon ? couponAmount(coupon, subtotal) : 0;
  spreadDiscount(lineItems, discount);

  const session = buildCheckoutSession(id, now, {
    mode: input.mode,
    url: `${emulator.publicUrl}/c/pay/${id}`,
    currency: lineItems[0]?.currency ?? "usd",
    // What is due today: nothing during a trial.
    amountSubtotal: trial ? 0 : subtotal,
    amountDiscount: trial ? 0 : discount,
    customer: customer?.id ?? null,
    customerEmail: input.customer_email ?? null,
    clientReferenceId: input.client_reference_id ?? null,
    metadata: mergeMetadata({}, input.metadata),
    successUrl: input.success_url ?? null,
    cancelUrl: input.cancel_url ?? null,
    expiresAt,
    locale: input.locale ?? null,
  });
  if (coupon) session.discounts = [{ coupon: coupon.id, promotion_code: null }];
  // Adaptive Pricing (the hosted page offers the buyer's local currency; see actions/adaptive-pricing.ts).
  // Stripe's default is the Dashboard setting, which the emulator takes to be off.
  if (input.adaptive_pricing?.enabled) session.adaptive_pricing = { enabled: true };
  if (input.submit_type) session.submit_type = input.submit_type;
  if (input.allow_promotion_codes !== undefined) session.allow_promotion_codes = input.allow_promotion_codes;
  if (input.billing_address_collection) session.billing_address_collection = input.billing_address_collection;
  if (input.customer_creation && session.mode === "payment")
    session.customer_creation = input.customer_creation;
  applyTaxParams(session, input);
  const details: CheckoutSessionDetails = {
    lineItems,
    paymentIntentMetadata: mergeMetadata({}, input.payment_intent_data?.metadata),
    subscriptionMetadata: mergeMetadata({}, input.subscription_data?.metadata),
    trialPeriodDays: input.subscription_data?.trial_period_days,
    trialEnd: input.subscription_data?.trial_end,
    coupon: coupon ?? undefined,
    customerUpdate: input.customer_update,
  };
  details.tax = initialTaxRecord(session, coupon ?? undefined, now);
  store.set("checkoutDetails", id, details);
  // A customer with an address is taxed at once, as Stripe does; otherwise when the buyer gives one.
  if (taxed && customer?.address?.country) {
    applyCheckoutTax(emulator, account, session, details, {
      address: customer.address,
      euVatId: hasEuVatId(emulator, account, customer.id),
      taxExempt: customerTaxExempt(customer),
    });
  }
  store.put("checkoutSessions", account, session);
  return session;
}

type CreateInput = z.output<typeof createSchema>;

/** The Stripe Tax parameters, checked as Stripe checks them. */
function checkTaxParams(
  emulator: Emulator,
  account: Scope,
  input: CreateInput,
  customer: Stripe.Customer | null,
): void {
  if (input.customer_update && !customer) {
    throw invalidRequest("`customer_update` can only be used with `customer`.", "customer_update");
  }
  if (input.automatic_tax?.enabled) {
    requireActiveTax(emulator, account);
    if (input.automatic_tax.liability?.type === "account" && !input.automatic_tax.liability.account) {
      throw parameterMissing("automatic_tax[liability][account]");
    }
    if (customer && !customer.address?.country && input.customer_update?.address !== "auto") {
      throw invalidRequest(
        "Automatic tax calculation in Checkout requires a valid address on the Customer. Add a valid address to the Customer or set `customer_update[address]` to 'auto' to save the address entered in Checkout to the Customer.",
        "automatic_tax[enabled]",
      );
    }
  }
  if (input.tax_id_collection?.enabled && customer && input.customer_update?.name !== "auto") {
    throw invalidRequest(
      "To collect tax IDs for an existing Customer, set `customer_update[name]` to 'auto' so the business name entered in Checkout is saved to the Customer.",
      "tax_id_collection[enabled]",
    );
  }
}

/** Reflects the tax, consent and text parameters on the session. */
function applyTaxParams(session: Stripe.Checkout.Session, input: CreateInput): void {
  const tax = input.automatic_tax;
  if (tax?.enabled) {
    session.automatic_tax = {
      enabled: true,
      liability:
        tax.liability?.type === "account" && tax.liability.account
          ? { type: "account", account: tax.liability.account }
          : { type: "self" },
      provider: "stripe",
      status: "requires_location_inputs",
    };
  }
  if (input.tax_id_collection) {
    session.tax_id_collection = {
      enabled: input.tax_id_collection.enabled,
      required: input.tax_id_collection.enabled ? (input.tax_id_collection.required ?? "never") : "never",
    };
  }
  if (input.consent_collection) {
    session.consent_collection = {
      payment_method_reuse_agreement: null,
      promotions: input.consent_collection.promotions ?? null,
      terms_of_service: input.consent_collection.terms_of_service ?? null,
    };
  }
  const text = input.custom_text;
  if (text) {
    session.custom_text = {
      after_submit: text.after_submit ?? null,
      shipping_address: text.shipping_address ?? null,
      submit: text.submit ?? null,
      terms_of_service_acceptance: text.terms_of_service_acceptance ?? null,
    };
  }
}

/** A line item once checked: an existing price, or the price `price_data` will make. */
type CheckedLine = { param: string; quantity: number } & (
  | { price: Stripe.Price }
  | { priceData: z.output<typeof priceDataSchema> }
);

function checkLine(
  emulator: Emulator,
  account: Scope,
  item: z.output<typeof lineItemSchema>,
  param: string,
): CheckedLine {
  if (item.quantity === undefined) throw parameterMissing(`${param}[quantity]`);
  if (item.price && item.price_data) {
    throw new StripeApiError(
      400,
      "invalid_request_error",
      `You may only specify one of these parameters: ${param}[price], ${param}[price_data].`,
      "parameters_exclusive",
      `${param}[price]`,
    );
  }
  const { store } = emulator;
  if (item.price) {
    const price = store.get("prices", account, item.price, "price", `${param}[price]`);
    requireSupportedCurrency(emulator, account, price.currency, `${param}[price]`);
    return { param, quantity: item.quantity, price };
  }
  if (!item.price_data) throw parameterMissing(`${param}[price]`);
  requireSupportedCurrency(emulator, account, item.price_data.currency, `${param}[price_data][currency]`);
  const { product, product_data: productData } = item.price_data;
  if (!product && !productData) throw parameterMissing(`${param}[price_data][product_data]`);
  if (product) store.get("products", account, product, "product", `${param}[price_data][product]`);
  return { param, quantity: item.quantity, priceData: item.price_data };
}

function lineRecurring(line: CheckedLine): boolean {
  return Boolean("price" in line ? line.price.recurring : line.priceData.recurring);
}

function lineCurrency(line: CheckedLine): string {
  return "price" in line ? line.price.currency : line.priceData.currency;
}
