import type Stripe from "stripe";
import { embeddedList } from "../lists.js";
import { snapshot } from "../state/snapshot.js";
import { planFromPrice } from "./price.js";

export interface SubscriptionItemInput {
  id: string;
  price: Stripe.Price;
  quantity: number;
}

export interface SubscriptionFields {
  customer: string;
  currency: string;
  items: SubscriptionItemInput[];
  metadata: Stripe.Metadata;
  description: string | null;
  periodStart: number;
  periodEnd: number;
  defaultPaymentMethod: string | null;
  latestInvoice: string | null;
}

export function buildSubscription(
  id: string,
  created: number,
  fields: SubscriptionFields,
): Stripe.Subscription {
  return {
    id,
    object: "subscription",
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: fields.periodStart,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: { proration_discounts: "included" }, type: "flexible", updated_at: created },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: "charge_automatically",
    created,
    currency: fields.currency,
    customer: fields.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: fields.defaultPaymentMethod,
    default_source: null,
    default_tax_rates: [],
    description: fields.description,
    discounts: [],
    ended_at: null,
    invoice_settings: {
      account_tax_ids: null,
      custom_fields: null,
      description: null,
      footer: null,
      issuer: { type: "self" },
    },
    items: embeddedList(
      fields.items.map((item) => buildSubscriptionItem(id, created, item, fields)),
      `/v1/subscription_items?subscription=${id}`,
    ),
    latest_invoice: fields.latestInvoice,
    livemode: false,
    managed_payments: null,
    metadata: fields.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: "off",
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: created,
    status: "active",
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: {
      end_behavior: { billing_cycle_anchor: null, missing_payment_method: "create_invoice" },
    },
    trial_start: null,
  };
}

function buildSubscriptionItem(
  subscription: string,
  created: number,
  item: SubscriptionItemInput,
  fields: SubscriptionFields,
): Stripe.SubscriptionItem {
  return {
    id: item.id,
    object: "subscription_item",
    billing_thresholds: null,
    created,
    current_period_end: fields.periodEnd,
    current_period_start: fields.periodStart,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planFromPrice(item.price),
    price: snapshot(item.price),
    quantity: item.quantity,
    subscription,
    tax_rates: [],
  };
}

/** The period of a subscription is kept on each item (API 2025-03-31 and later). */
export function setSubscriptionPeriod(subscription: Stripe.Subscription, start: number, end: number): void {
  for (const item of subscription.items.data) {
    item.current_period_start = start;
    item.current_period_end = end;
  }
}

export function subscriptionPeriod(subscription: Stripe.Subscription): { start: number; end: number } {
  const item = subscription.items.data[0];
  return {
    start: item?.current_period_start ?? subscription.created,
    end: item?.current_period_end ?? subscription.created,
  };
}
