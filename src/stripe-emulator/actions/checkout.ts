import type Stripe from "stripe";
import { type CardCheck, type CardInput, checkCard } from "../cards.js";
import type { Emulator } from "../emulator.js";
import { invalidRequest, resourceMissing } from "../errors.js";
import { newId } from "../ids.js";
import { customerDetails } from "../objects/checkout-session.js";
import { buildCustomer } from "../objects/customer.js";
import { buildAddress } from "../objects/tax.js";
import { redeemCoupon } from "../resources/coupons.js";
import { addTaxId, customerTaxIds } from "../resources/customers.js";
import { snapshot } from "../state/snapshot.js";
import type { CheckoutSessionDetails, SavedCard, Scope } from "../state/types.js";
import { isEu } from "../tax/calculate.js";
import { AUTOMATIC, type EventOrigin } from "../webhooks/events.js";
import { offeredCurrency, presentmentDetails, presentmentOf } from "./adaptive-pricing.js";
import { applyCheckoutTax } from "./checkout-tax.js";
import { applySessionTaxFromInvoice } from "./invoice-tax.js";
import { chargeCard } from "./payments.js";
import { startSubscription } from "./subscriptions.js";

export type CheckoutPayment =
  | { ok: true; session: Stripe.Checkout.Session }
  | Extract<CardCheck, { ok: false }>
  | CheckoutFieldError;

/** A field of the page the buyer must fix (address, business details, terms). */
export interface CheckoutFieldError {
  ok: false;
  code: string;
  declineCode?: undefined;
  message: string;
  param:
    | "name"
    | "country"
    | "state"
    | "postal_code"
    | "line1"
    | "city"
    | "business_name"
    | "tax_id"
    | "terms_of_service"
    | "currency";
}

/** What the page collects beside the card, when the session asks for it. */
export interface BuyerInput {
  name?: string | undefined;
  address?: Partial<Stripe.Address> | undefined;
  /** "I'm purchasing as a business". */
  business?: boolean | undefined;
  businessName?: string | undefined;
  /** A VAT number (`DE123456789`); its type is read from its shape. */
  taxId?: string | undefined;
  termsAccepted?: boolean | undefined;
  /** With `consent_collection[promotions]=auto`: the promotions box ("Send me news and offers"). */
  promotions?: boolean | undefined;
  /**
   * Adaptive Pricing: the buyer's `Accept-Language` (their country, hence the currency offered) and the
   * currency they chose to pay in (the session's, or the one offered; default: the one offered).
   */
  acceptLanguage?: string | undefined;
  currency?: string | undefined;
}

/** A session and the account it lives on, found by id alone (hosted pages and the control API). */
export function findCheckoutSession(
  emulator: Emulator,
  id: string,
): { account: Scope; session: Stripe.Checkout.Session } {
  const owned = emulator.store.state.checkoutSessions[id];
  if (!owned) throw resourceMissing("checkout.session", id);
  return { account: owned.account, session: owned.object };
}

const VALID_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What the hosted page does on "Pay": check the card, then charge it or start the subscription. */
export function payCheckoutSession(
  emulator: Emulator,
  account: Scope,
  session: Stripe.Checkout.Session,
  payment: CardInput & { email: string } & BuyerInput,
): CheckoutPayment {
  expireIfDue(emulator, account, session);
  if (session.status !== "open") {
    throw invalidRequest(`This Checkout Session is no longer active (status: ${session.status}).`);
  }
  const email = payment.email.trim();
  if (!VALID_EMAIL.test(email)) {
    return { ok: false, code: "email_invalid", message: "Your email address is invalid.", param: "email" };
  }
  const existing =
    typeof session.customer === "string"
      ? emulator.store.find("customers", account, session.customer)
      : undefined;
  const buyer = checkBuyer(session, existing, payment);
  if (!buyer.ok) return buyer;
  const paymentCurrency = choosePaymentCurrency(
    session,
    offeredCurrency(emulator, account, session, payment.acceptLanguage),
    payment.currency,
  );
  if (typeof paymentCurrency !== "string") return paymentCurrency;
  const card = checkCard(payment, emulator.now());
  if (!card.ok) return card;
  const details = emulator.store.state.checkoutDetails[session.id];
  if (!details) throw resourceMissing("checkout.session", session.id);

  const customer = resolveCustomer(emulator, account, session, email, buyer);
  const saved: SavedCard = {
    id: newId("pm"),
    customer: customer?.id ?? "",
    brand: card.brand,
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
  };
  emulator.store.set("cards", saved.id, saved);
  const taxExempt = customer ? customerTaxExempt(customer) : "none";
  const taxIds = buyer.taxId
    ? [buyer.taxId]
    : customer
      ? customerTaxIdsOf(emulator, account, customer.id)
      : [];
  session.customer_details = {
    ...customerDetails(email),
    address: buyer.address,
    name: buyer.name,
    business_name: buyer.businessName,
    tax_exempt: taxExempt,
    tax_ids: taxIds,
  };
  if (session.automatic_tax.enabled) {
    if (session.mode === "payment" && buyer.address) {
      applyCheckoutTax(emulator, account, session, details, {
        address: buyer.address,
        euVatId: taxIds.some((taxId) => taxId.type === "eu_vat"),
        taxExempt,
      });
    }
    // A subscription is taxed on its invoices; the session shows the first one's tax (below).
    session.automatic_tax.status = "complete";
  }
  const promotions = collectsPromotions(session)
    ? payment.promotions
      ? ("opt_in" as const)
      : ("opt_out" as const)
    : null;
  const termsOfService =
    session.consent_collection?.terms_of_service === "required" ? ("accepted" as const) : null;
  if (promotions || termsOfService) {
    session.consent = { promotions, terms_of_service: termsOfService };
  }
  if (customer) updateCustomerFromCheckout(emulator, account, customer, details, buyer, email);

  // The coupon as the session priced it; a redemption is counted on the coupon if it still exists.
  const coupon = details.coupon ?? null;
  // Adaptive Pricing: the buyer pays in their own currency (the one the page offered them).
  const inBuyersCurrency = paymentCurrency !== session.currency ? paymentCurrency : undefined;
  if (session.mode === "subscription") {
    if (!customer) throw resourceMissing("customer", String(session.customer), "customer");
    const now = emulator.now();
    const trialEnd =
      details.trialEnd ?? (details.trialPeriodDays ? now + details.trialPeriodDays * 86_400 : null);
    const { subscription, invoice } = startSubscription(emulator, {
      account,
      customer,
      items: details.lineItems.flatMap((item) =>
        item.price ? [{ price: item.price, quantity: item.quantity ?? 1 }] : [],
      ),
      metadata: details.subscriptionMetadata,
      description: null,
      card: saved,
      trialEnd,
      coupon,
      checkoutSession: session.id,
      automaticTax: session.automatic_tax.enabled
        ? snapshot(session.automatic_tax.liability ?? { type: "self" })
        : null,
      presentmentCurrency: inBuyersCurrency ?? null,
      origin: AUTOMATIC,
    });
    session.subscription = subscription.id;
    session.invoice = invoice.id;
    if (session.automatic_tax.enabled) {
      applySessionTaxFromInvoice(emulator, account, session, details, subscription, invoice);
    }
    // What the first invoice charged in the buyer's currency (the session's total, tax included).
    if (inBuyersCurrency)
      session.presentment_details = presentmentDetails(presentmentOf(session, inBuyersCurrency));
  } else if ((session.amount_total ?? 0) > 0) {
    // In the buyer's currency (Adaptive Pricing), from the final total (tax included).
    const presentment = inBuyersCurrency ? presentmentOf(session, inBuyersCurrency) : undefined;
    const { paymentIntent } = chargeCard(
      emulator,
      account,
      {
        amount: session.amount_total ?? 0,
        currency: session.currency ?? "usd",
        customer: typeof session.customer === "string" ? session.customer : null,
        email,
        metadata: { ...details.paymentIntentMetadata },
        description: null,
        card: saved,
        billingAddress: buyer.address,
        billingName: buyer.name,
      },
      AUTOMATIC,
      presentment,
    );
    session.payment_intent = paymentIntent.id;
    if (presentment) session.presentment_details = presentmentDetails(presentment);
  }
  const liveCoupon = coupon ? emulator.store.find("coupons", account, coupon.id) : undefined;
  if (liveCoupon) redeemCoupon(emulator, account, liveCoupon);
  session.status = "complete";
  // A trial (or a discount that leaves nothing to pay) charges nothing now.
  session.payment_status = (session.amount_total ?? 0) > 0 ? "paid" : "no_payment_required";
  session.url = null;
  emulator.store.put("checkoutSessions", account, session);
  emulator.events.emit(account, { type: "checkout.session.completed", data: { object: session } }, AUTOMATIC);
  return { ok: true, session };
}

export function expireCheckoutSession(
  emulator: Emulator,
  account: Scope,
  session: Stripe.Checkout.Session,
  origin: EventOrigin,
): Stripe.Checkout.Session {
  if (session.status !== "open") {
    throw invalidRequest(
      `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
    );
  }
  session.status = "expired";
  session.url = null;
  // What the buyer typed before leaving: whether they agreed to promotions, and (only then) their email.
  const consent = emulator.store.state.checkoutDetails[session.id]?.promotionsConsent;
  if (consent && collectsPromotions(session)) {
    session.consent = { promotions: consent.optIn ? "opt_in" : "opt_out", terms_of_service: null };
    if (consent.optIn) session.customer_details = customerDetails(consent.email);
  }
  emulator.store.put("checkoutSessions", account, session);
  emulator.events.emit(account, { type: "checkout.session.expired", data: { object: session } }, origin);
  return session;
}

/** `consent_collection[promotions]=auto`: the page offers the promotions box. */
export function collectsPromotions(session: Stripe.Checkout.Session): boolean {
  return session.consent_collection?.promotions === "auto";
}

/**
 * What the page saves while the buyer fills it in, before paying (Stripe's page does the same): the email
 * and the promotions box. Kept with the session and shown on it only if it expires (`consent`, and
 * `customer_details.email` when the buyer opted in). Nothing is saved for a session that does not collect
 * promotions consent, a closed one, or an email that is not one.
 */
export function saveBuyerConsent(
  emulator: Emulator,
  session: Stripe.Checkout.Session,
  input: { email: string; optIn: boolean },
): boolean {
  const details = emulator.store.state.checkoutDetails[session.id];
  const email = input.email.trim();
  if (!details || session.status !== "open" || !collectsPromotions(session) || !VALID_EMAIL.test(email)) {
    return false;
  }
  details.promotionsConsent = { email, optIn: input.optIn };
  emulator.store.set("checkoutDetails", session.id, details);
  return true;
}

/** Sessions expire on their own at `expires_at`, whether or not anyone is looking. */
export function expireIfDue(emulator: Emulator, account: Scope, session: Stripe.Checkout.Session): void {
  if (session.status === "open" && session.expires_at <= emulator.now()) {
    expireCheckoutSession(emulator, account, session, AUTOMATIC);
  }
}

/**
 * The currency the buyer pays in: the session's, or the local one the page offered (the default when
 * offered). Another currency is refused, as the page offers no other.
 */
function choosePaymentCurrency(
  session: Stripe.Checkout.Session,
  offered: string | undefined,
  chosen: string | undefined,
): string | CheckoutFieldError {
  const integration = session.currency ?? "usd";
  const choice = chosen?.trim().toLowerCase() || offered || integration;
  if (choice === integration || choice === offered) return choice;
  const choices = [integration, offered].filter(Boolean).join(" or ");
  return {
    ok: false,
    code: "currency_unavailable",
    message: `This Checkout Session can't be paid in ${choice}: choose ${choices}.`,
    param: "currency",
  };
}

/** Subscription mode always has a customer; payment mode only keeps the one it was given. */
function resolveCustomer(
  emulator: Emulator,
  account: Scope,
  session: Stripe.Checkout.Session,
  email: string,
  buyer: CheckedBuyer,
): Stripe.Customer | undefined {
  if (typeof session.customer === "string")
    return emulator.store.find("customers", account, session.customer);
  if (session.mode !== "subscription") return undefined;
  const customer = buildCustomer(newId("cus"), emulator.now(), {
    email,
    name: buyer.name,
    description: null,
    phone: null,
    metadata: {},
  });
  if (buyer.address) customer.address = buyer.address;
  emulator.store.put("customers", account, customer);
  if (buyer.taxId) addTaxId(emulator, account, customer, buyer.taxId);
  emulator.events.emit(account, { type: "customer.created", data: { object: customer } }, AUTOMATIC);
  session.customer = customer.id;
  return customer;
}

export function customerTaxExempt(customer: Stripe.Customer): "none" | "exempt" | "reverse" {
  const value = customer.tax_exempt;
  return value === "exempt" ? "exempt" : value === "reverse" ? "reverse" : "none";
}

function customerTaxIdsOf(
  emulator: Emulator,
  account: Scope,
  customer: string,
): Stripe.Checkout.Session.CustomerDetails.TaxId[] {
  return customerTaxIds(emulator, account, customer).map((taxId) => ({
    type: taxId.type,
    value: taxId.value,
  }));
}

export function hasEuVatId(emulator: Emulator, account: Scope, customer: string): boolean {
  return customerTaxIds(emulator, account, customer).some((taxId) => taxId.type === "eu_vat");
}

interface CheckedBuyer {
  ok: true;
  name: string | null;
  address: Stripe.Address | null;
  businessName: string | null;
  taxId: { type: "eu_vat" | "gb_vat" | "unknown"; value: string } | null;
}

const POSTAL_CODE_REQUIRED = new Set(["US", "GB", "DE", "FR", "IE", "ES", "IT", "NL", "CA", "AU"]);

/** The address, business details and terms the session asks for, checked as the hosted page does. */
function checkBuyer(
  session: Stripe.Checkout.Session,
  customer: Stripe.Customer | undefined,
  input: BuyerInput,
): CheckedBuyer | CheckoutFieldError {
  const fail = (
    param: CheckoutFieldError["param"],
    message: string,
    code = "incomplete",
  ): CheckoutFieldError => ({
    ok: false,
    code,
    message,
    param,
  });
  const collectAddress = session.automatic_tax.enabled || session.billing_address_collection === "required";
  let address: Stripe.Address | null = null;
  const name = collectAddress ? input.name?.trim() || customer?.name || null : null;
  if (collectAddress) {
    const given = input.address?.country ? input.address : (customer?.address ?? input.address ?? {});
    const country = given.country?.trim().toUpperCase() ?? "";
    if (!name) return fail("name", "Enter your full name.");
    if (!/^[A-Z]{2}$/.test(country)) return fail("country", "Select your country or region.");
    const state = given.state?.trim().toUpperCase() || null;
    if (country === "US" && !state) return fail("state", "Select your state.");
    const postalCode = given.postal_code?.trim() || null;
    if (!postalCode && POSTAL_CODE_REQUIRED.has(country))
      return fail("postal_code", "Enter your postal code.");
    const line1 = given.line1?.trim() || null;
    const city = given.city?.trim() || null;
    if (session.billing_address_collection === "required") {
      if (!line1) return fail("line1", "Enter your address.");
      if (!city) return fail("city", "Enter your city.");
    }
    address = buildAddress({
      country,
      state,
      postal_code: postalCode,
      line1,
      city,
      line2: given.line2 ?? null,
    });
  }
  let businessName: string | null = null;
  let taxId: CheckedBuyer["taxId"] = null;
  if (session.tax_id_collection?.enabled && input.business) {
    businessName = input.businessName?.trim() || null;
    if (!businessName) return fail("business_name", "Enter your business name.");
    const value = (input.taxId ?? "").replace(/[\s.-]/g, "").toUpperCase();
    if (value) {
      if (!/^[A-Z]{2}[0-9A-Z]{2,13}$/.test(value))
        return fail("tax_id", "Your tax ID is invalid.", "tax_id_invalid");
      const prefix = value.slice(0, 2);
      taxId = {
        type: prefix === "GB" ? "gb_vat" : isEu(prefix === "EL" ? "GR" : prefix) ? "eu_vat" : "unknown",
        value,
      };
    }
  }
  if (session.consent_collection?.terms_of_service === "required" && !input.termsAccepted) {
    return fail(
      "terms_of_service",
      "You must agree to the terms of service to continue.",
      "terms_of_service_required",
    );
  }
  return { ok: true, name, address, businessName, taxId };
}

/**
 * What paying changes on the session's customer: the typed email when the customer had none (Stripe:
 * "If the Customer does not have a valid email, Checkout will set the email entered during the session on
 * the Customer"); with `customer_update[address|name]=auto`, the address and name typed; a typed tax id is
 * added. One `customer.updated` with what changed.
 */
function updateCustomerFromCheckout(
  emulator: Emulator,
  account: Scope,
  customer: Stripe.Customer,
  details: CheckoutSessionDetails,
  buyer: CheckedBuyer,
  email: string,
): void {
  const previous: Partial<Stripe.Customer> = {};
  if (!customer.email || !VALID_EMAIL.test(customer.email)) {
    previous.email = customer.email;
    customer.email = email;
  }
  if (details.customerUpdate?.address === "auto" && buyer.address) {
    previous.address = customer.address ?? null;
    customer.address = buyer.address;
  }
  if (details.customerUpdate?.name === "auto" && (buyer.businessName || buyer.name)) {
    previous.name = customer.name;
    customer.name = buyer.businessName ?? buyer.name;
  }
  if (buyer.taxId && details.customerUpdate) addTaxId(emulator, account, customer, buyer.taxId);
  if (Object.keys(previous).length === 0) return;
  emulator.store.put("customers", account, customer);
  emulator.events.emit(
    account,
    { type: "customer.updated", data: { object: customer, previous_attributes: previous } },
    AUTOMATIC,
  );
}
