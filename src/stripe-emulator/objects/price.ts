import Stripe from "stripe";

export interface ProductFields {
  name: string;
  description: string | null;
  metadata: Stripe.Metadata;
  active: boolean;
}

export function buildProduct(id: string, created: number, fields: ProductFields): Stripe.Product {
  return {
    id,
    object: "product",
    active: fields.active,
    created,
    default_price: null,
    description: fields.description,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: fields.metadata,
    name: fields.name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    type: "service",
    unit_label: null,
    updated: created,
    url: null,
  };
}

export interface PriceFields {
  product: string;
  currency: string;
  unitAmount: number;
  recurring: { interval: Stripe.Price.Recurring.Interval; intervalCount: number } | null;
  lookupKey: string | null;
  nickname: string | null;
  metadata: Stripe.Metadata;
  active: boolean;
}

export function buildPrice(id: string, created: number, fields: PriceFields): Stripe.Price {
  return {
    id,
    object: "price",
    active: fields.active,
    billing_scheme: "per_unit",
    created,
    currency: fields.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: fields.lookupKey,
    metadata: fields.metadata,
    nickname: fields.nickname,
    product: fields.product,
    recurring: fields.recurring
      ? {
          interval: fields.recurring.interval,
          interval_count: fields.recurring.intervalCount,
          meter: null,
          trial_period_days: null,
          usage_type: "licensed",
        }
      : null,
    tax_behavior: "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: fields.recurring ? "recurring" : "one_time",
    unit_amount: fields.unitAmount,
    unit_amount_decimal: Stripe.Decimal.from(fields.unitAmount),
  };
}

/** Subscription items still carry the legacy `plan`, mirroring their recurring price. */
export function planFromPrice(price: Stripe.Price): Stripe.Plan {
  return {
    id: price.id,
    object: "plan",
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: price.billing_scheme,
    created: price.created,
    currency: price.currency,
    interval: price.recurring?.interval ?? "month",
    interval_count: price.recurring?.interval_count ?? 1,
    livemode: false,
    metadata: price.metadata,
    meter: null,
    nickname: price.nickname,
    product: typeof price.product === "string" ? price.product : price.product.id,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: "licensed",
  };
}
