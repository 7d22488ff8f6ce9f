import type Stripe from "stripe";

type Features = Stripe.BillingPortal.Configuration.Features;
type CancelMode = Stripe.BillingPortal.Configuration.Features.SubscriptionCancel.Mode;
type CancelProration = Stripe.BillingPortal.Configuration.Features.SubscriptionCancel.ProrationBehavior;

/** A feature given on create or update: only the fields passed change. */
export interface FeaturesInput {
  customer_update?: { enabled?: boolean | undefined; allowed_updates?: string[] | undefined } | undefined;
  invoice_history?: { enabled: boolean } | undefined;
  payment_method_update?: { enabled: boolean } | undefined;
  subscription_cancel?:
    | {
        enabled?: boolean | undefined;
        mode?: CancelMode | undefined;
        proration_behavior?: CancelProration | undefined;
      }
    | undefined;
  subscription_update?: { enabled?: boolean | undefined } | undefined;
}

export interface PortalConfigurationFields {
  features: FeaturesInput;
  headline: string | null;
  privacyPolicyUrl: string | null;
  termsOfServiceUrl: string | null;
  defaultReturnUrl: string | null;
  metadata: Stripe.Metadata;
  name: string | null;
  isDefault: boolean;
}

/** Every feature off: what Stripe assumes for a feature a configuration does not mention. */
function featuresOff(): Features {
  return {
    customer_update: { allowed_updates: [], enabled: false },
    invoice_history: { enabled: false },
    payment_method_update: { enabled: false, payment_method_configuration: null },
    subscription_cancel: {
      cancellation_reason: { enabled: false, feedback_options: null, options: [] },
      enabled: false,
      mode: "at_period_end",
      proration_behavior: "none",
    },
    subscription_pause: { duration: { interval_options: [], type: "indefinite" }, enabled: false },
    subscription_update: {
      billing_cycle_anchor: null,
      default_allowed_updates: [],
      enabled: false,
      products: [],
      proration_behavior: "none",
      schedule_at_period_end: { conditions: [] },
      trial_update_behavior: "end_trial",
    },
  };
}

export function applyFeatures(features: Features, input: FeaturesInput): void {
  const {
    customer_update,
    invoice_history,
    payment_method_update,
    subscription_cancel,
    subscription_update,
  } = input;
  if (customer_update?.enabled !== undefined) features.customer_update.enabled = customer_update.enabled;
  if (customer_update?.allowed_updates)
    features.customer_update.allowed_updates = customer_update.allowed_updates;
  if (invoice_history) features.invoice_history.enabled = invoice_history.enabled;
  if (payment_method_update) features.payment_method_update.enabled = payment_method_update.enabled;
  if (subscription_cancel?.enabled !== undefined)
    features.subscription_cancel.enabled = subscription_cancel.enabled;
  if (subscription_cancel?.mode) features.subscription_cancel.mode = subscription_cancel.mode;
  if (subscription_cancel?.proration_behavior)
    features.subscription_cancel.proration_behavior = subscription_cancel.proration_behavior;
  if (subscription_update?.enabled !== undefined)
    features.subscription_update.enabled = subscription_update.enabled;
}

export function buildPortalConfiguration(
  id: string,
  created: number,
  fields: PortalConfigurationFields,
): Stripe.BillingPortal.Configuration {
  const features = featuresOff();
  applyFeatures(features, fields.features);
  return {
    id,
    object: "billing_portal.configuration",
    active: true,
    application: null,
    business_profile: {
      headline: fields.headline,
      privacy_policy_url: fields.privacyPolicyUrl,
      terms_of_service_url: fields.termsOfServiceUrl,
    },
    created,
    default_return_url: fields.defaultReturnUrl,
    features,
    is_default: fields.isDefault,
    livemode: false,
    login_page: { enabled: false, url: null },
    metadata: fields.metadata,
    name: fields.name,
    updated: created,
  };
}

/**
 * What a Stripe account gets once its portal settings are saved in the Dashboard: customers update
 * their card, see their invoices and cancel at the end of the period.
 */
export const DASHBOARD_DEFAULTS: Omit<PortalConfigurationFields, "isDefault"> = {
  features: {
    payment_method_update: { enabled: true },
    invoice_history: { enabled: true },
    subscription_cancel: { enabled: true, mode: "at_period_end" },
  },
  headline: null,
  privacyPolicyUrl: null,
  termsOfServiceUrl: null,
  defaultReturnUrl: null,
  metadata: {},
  name: null,
};
