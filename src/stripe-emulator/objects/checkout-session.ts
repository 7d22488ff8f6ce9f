import type Stripe from "stripe";
import { snapshot } from "../state/snapshot.js";

export interface CheckoutSessionFields {
  mode: "payment" | "subscription";
  url: string;
  currency: string;
  amountSubtotal: number;
  amountDiscount: number;
  customer: string | null;
  customerEmail: string | null;
  clientReferenceId: string | null;
  metadata: Stripe.Metadata;
  successUrl: string | null;
  cancelUrl: string | null;
  expiresAt: number;
  locale: Stripe.Checkout.Session.Locale | null;
}

export function buildCheckoutSession(
  id: string,
  created: number,
  fields: CheckoutSessionFields,
): Stripe.Checkout.Session {
  const payment = fields.mode === "payment";
  return {
    id,
    object: "checkout.session",
    adaptive_pricing: { enabled: false },
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: fields.amountSubtotal,
    amount_total: fields.amountSubtotal - fields.amountDiscount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: fields.cancelUrl,
    client_reference_id: fields.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created,
    currency: fields.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer: fields.customer,
    customer_account: null,
    customer_creation: payment && !fields.customer ? "if_required" : null,
    customer_details: null,
    customer_email: fields.customerEmail,
    discounts: [],
    expires_at: fields.expiresAt,
    integration_identifier: null,
    invoice: null,
    invoice_creation: payment
      ? {
          enabled: false,
          invoice_data: {
            account_tax_ids: null,
            custom_fields: null,
            description: null,
            footer: null,
            issuer: null,
            metadata: {},
            rendering_options: null,
          },
        }
      : null,
    livemode: false,
    locale: fields.locale,
    managed_payments: null,
    metadata: fields.metadata,
    mode: fields.mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: payment ? "if_required" : "always",
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: "automatic" } },
    payment_method_types: ["card"],
    payment_status: "unpaid",
    permissions: null,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: "open",
    submit_type: null,
    subscription: null,
    success_url: fields.successUrl,
    tax_id_collection: { enabled: false, required: "never" },
    total_details: { amount_discount: fields.amountDiscount, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted_page",
    url: fields.url,
    wallet_options: null,
  };
}

export function buildLineItem(
  id: string,
  price: Stripe.Price,
  quantity: number,
  description: string,
): Stripe.LineItem {
  const amount = (price.unit_amount ?? 0) * quantity;
  return {
    id,
    object: "item",
    adjustable_quantity: null,
    amount_discount: 0,
    amount_subtotal: amount,
    amount_tax: 0,
    amount_total: amount,
    currency: price.currency,
    description,
    metadata: {},
    // A copy as it was: the state keeps no object in two places (see state/store.ts).
    price: snapshot(price),
    quantity,
  };
}

export function customerDetails(email: string): Stripe.Checkout.Session.CustomerDetails {
  return {
    address: null,
    business_name: null,
    email,
    individual_name: null,
    name: null,
    phone: null,
    tax_exempt: "none",
    tax_ids: [],
  };
}
