import type Stripe from "stripe";

export interface CustomerFields {
  email: string | null;
  name: string | null;
  description: string | null;
  phone: string | null;
  metadata: Stripe.Metadata;
}

export function buildCustomer(id: string, created: number, fields: CustomerFields): Stripe.Customer {
  return {
    id,
    object: "customer",
    address: null,
    balance: 0,
    created,
    currency: null,
    customer_account: null,
    default_source: null,
    delinquent: false,
    description: fields.description,
    discount: null,
    email: fields.email,
    invoice_prefix: id.slice(4, 12).toUpperCase(),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: fields.metadata,
    name: fields.name,
    next_invoice_sequence: 1,
    phone: fields.phone,
    preferred_locales: [],
    shipping: null,
    tax_exempt: "none",
    test_clock: null,
  };
}
