import type Stripe from "stripe";
import { z } from "zod";
import type { ApiRoutes } from "../api.js";
import type { Emulator } from "../emulator.js";
import { invalidRequest, parameterMissing } from "../errors.js";
import { newId } from "../ids.js";
import { paginate } from "../lists.js";
import {
  applyFeatures,
  buildPortalConfiguration,
  DASHBOARD_DEFAULTS,
  type PortalConfigurationFields,
} from "../objects/portal-configuration.js";
import {
  boolean,
  emptyable,
  list,
  listParams,
  mergeMetadata,
  metadata,
  parseParams,
  requiredText,
  text,
} from "../params.js";
import type { Scope } from "../state/types.js";

const afterCompletionSchema = z.strictObject({
  type: z.enum(["hosted_confirmation", "portal_homepage", "redirect"]),
  redirect: z.strictObject({ return_url: requiredText() }).optional(),
  hosted_confirmation: z.strictObject({ custom_message: text().optional() }).optional(),
});

/** The flows the emulator's portal can start on: a card update, or one subscription to cancel or change. */
const flowDataSchema = z.strictObject({
  type: z.enum(["payment_method_update", "subscription_cancel", "subscription_update"]),
  after_completion: afterCompletionSchema.optional(),
  subscription_cancel: z.strictObject({ subscription: requiredText() }).optional(),
  subscription_update: z.strictObject({ subscription: requiredText() }).optional(),
});

const sessionSchema = z.strictObject({
  customer: requiredText(),
  flow_data: flowDataSchema.optional(),
  return_url: text().optional(),
  configuration: text().optional(),
  locale: text().optional(),
  on_behalf_of: text().optional(),
});

const featuresSchema = z.strictObject({
  customer_update: z
    .strictObject({
      enabled: boolean().optional(),
      allowed_updates: z
        .union([z.literal(""), list(z.enum(["address", "email", "name", "phone", "shipping", "tax_id"]))])
        .optional(),
    })
    .optional(),
  invoice_history: z.strictObject({ enabled: boolean() }).optional(),
  payment_method_update: z.strictObject({ enabled: boolean() }).optional(),
  subscription_cancel: z
    .strictObject({
      enabled: boolean().optional(),
      mode: z.enum(["at_period_end", "immediately"]).optional(),
      proration_behavior: z.enum(["always_invoice", "create_prorations", "none"]).optional(),
    })
    .optional(),
  subscription_update: z.strictObject({ enabled: boolean().optional() }).optional(),
});

const businessProfileSchema = z.strictObject({
  headline: emptyable().optional(),
  privacy_policy_url: emptyable().optional(),
  terms_of_service_url: emptyable().optional(),
});

const configurationSchema = z.strictObject({
  features: featuresSchema,
  business_profile: businessProfileSchema.optional(),
  default_return_url: emptyable().optional(),
  metadata: metadata().optional(),
  name: emptyable().optional(),
});

const configurationUpdateSchema = configurationSchema.partial().extend({ active: boolean().optional() });

const configurationListSchema = z.strictObject({
  ...listParams,
  active: boolean().optional(),
  is_default: boolean().optional(),
});

type FeaturesParams = z.output<typeof featuresSchema>;

/** The parameters as the object's builder takes them; `""` (unset) lists become empty. */
function featuresInput(features: FeaturesParams) {
  return {
    ...features,
    customer_update: features.customer_update && {
      enabled: features.customer_update.enabled,
      allowed_updates:
        features.customer_update.allowed_updates === "" ? [] : features.customer_update.allowed_updates,
    },
  };
}

/** `flow_data` as the session shows it (`flow`), its subscription checked to be the customer's. */
function sessionFlow(
  emulator: Emulator,
  account: Scope,
  customer: string,
  data: z.output<typeof flowDataSchema>,
): Stripe.BillingPortal.Session.Flow {
  const subscriptionFor = (param: "subscription_cancel" | "subscription_update") => {
    const id = data[param]?.subscription;
    if (!id) throw parameterMissing(`flow_data[${param}][subscription]`);
    const subscription = emulator.store.get(
      "subscriptions",
      account,
      id,
      "subscription",
      `flow_data[${param}][subscription]`,
    );
    if (subscription.customer !== customer || subscription.status === "canceled") {
      throw invalidRequest(
        `The subscription ${id} is not an active subscription of the customer ${customer}.`,
        `flow_data[${param}][subscription]`,
      );
    }
    return id;
  };
  const after = data.after_completion ?? { type: "portal_homepage" as const };
  if (after.type === "redirect" && !after.redirect)
    throw parameterMissing("flow_data[after_completion][redirect]");
  return {
    type: data.type,
    after_completion: {
      type: after.type,
      redirect:
        after.type === "redirect" && after.redirect ? { return_url: after.redirect.return_url } : null,
      hosted_confirmation:
        after.type === "hosted_confirmation"
          ? { custom_message: after.hosted_confirmation?.custom_message ?? null }
          : null,
    },
    customer_update: null,
    subscription_cancel:
      data.type === "subscription_cancel"
        ? { retention: null, subscription: subscriptionFor("subscription_cancel") }
        : null,
    subscription_pause: null,
    subscription_update:
      data.type === "subscription_update" ? { subscription: subscriptionFor("subscription_update") } : null,
    subscription_update_confirm: null,
  };
}

export function registerBillingPortal(routes: ApiRoutes, emulator: Emulator): void {
  const { store } = emulator;
  const defaultConfiguration = (account: Scope) =>
    store.list("portalConfigurations", account).find((configuration) => configuration.is_default);

  const createConfiguration = (
    account: Scope,
    fields: Omit<PortalConfigurationFields, "isDefault">,
  ): Stripe.BillingPortal.Configuration => {
    const configuration = buildPortalConfiguration(newId("bpc"), emulator.now(), {
      ...fields,
      // The API cannot choose the default; here the first configuration of an account becomes it.
      isDefault: defaultConfiguration(account) === undefined,
    });
    store.put("portalConfigurations", account, configuration);
    return configuration;
  };

  /**
   * The configuration a session uses. Stripe needs a default (saved in the Dashboard, or made by a setup
   * script) before a session without one can open; the emulator has no Dashboard, so it saves the
   * Dashboard's usual settings as the default the first time one is needed.
   */
  const sessionConfiguration = (account: Scope, id: string | undefined) => {
    if (id) {
      const configuration = store.get("portalConfigurations", account, id, "configuration", "configuration");
      if (!configuration.active) throw invalidRequest("This configuration is not active.", "configuration");
      return configuration;
    }
    return defaultConfiguration(account) ?? createConfiguration(account, DASHBOARD_DEFAULTS);
  };

  routes.post("/v1/billing_portal/sessions", ({ account, params }) => {
    const input = parseParams(sessionSchema, params);
    store.get("customers", account, input.customer, "customer", "customer");
    const configuration = sessionConfiguration(account, input.configuration);
    const id = newId("bps");
    const session: Stripe.BillingPortal.Session = {
      id,
      object: "billing_portal.session",
      configuration: configuration.id,
      created: emulator.now(),
      customer: input.customer,
      customer_account: null,
      flow: input.flow_data ? sessionFlow(emulator, account, input.customer, input.flow_data) : null,
      livemode: false,
      locale: input.locale ?? null,
      on_behalf_of: input.on_behalf_of ?? null,
      return_url: input.return_url ?? configuration.default_return_url,
      url: `${emulator.publicUrl}/p/session/${id}`,
    };
    store.put("portalSessions", account, session);
    return session;
  });

  routes.post("/v1/billing_portal/configurations", ({ account, params }) => {
    const input = parseParams(configurationSchema, params);
    return createConfiguration(account, {
      features: featuresInput(input.features),
      headline: input.business_profile?.headline ?? null,
      privacyPolicyUrl: input.business_profile?.privacy_policy_url ?? null,
      termsOfServiceUrl: input.business_profile?.terms_of_service_url ?? null,
      defaultReturnUrl: input.default_return_url ?? null,
      metadata: mergeMetadata({}, input.metadata),
      name: input.name ?? null,
    });
  });

  routes.get("/v1/billing_portal/configurations/:id", ({ account, id }) =>
    store.get("portalConfigurations", account, id, "configuration"),
  );

  routes.post("/v1/billing_portal/configurations/:id", ({ account, id, params }) => {
    const configuration = store.get("portalConfigurations", account, id, "configuration");
    const input = parseParams(configurationUpdateSchema, params);
    if (input.active === false && configuration.is_default) {
      throw invalidRequest("The default configuration cannot be deactivated.", "active");
    }
    if (input.active !== undefined) configuration.active = input.active;
    if (input.features) applyFeatures(configuration.features, featuresInput(input.features));
    const profile = input.business_profile;
    if (profile?.headline !== undefined) configuration.business_profile.headline = profile.headline;
    if (profile?.privacy_policy_url !== undefined)
      configuration.business_profile.privacy_policy_url = profile.privacy_policy_url;
    if (profile?.terms_of_service_url !== undefined)
      configuration.business_profile.terms_of_service_url = profile.terms_of_service_url;
    if (input.default_return_url !== undefined) configuration.default_return_url = input.default_return_url;
    if (input.name !== undefined) configuration.name = input.name;
    configuration.metadata = mergeMetadata(configuration.metadata ?? {}, input.metadata);
    configuration.updated = emulator.now();
    store.put("portalConfigurations", account, configuration);
    return configuration;
  });

  routes.get("/v1/billing_portal/configurations", ({ account, params }) => {
    const input = parseParams(configurationListSchema, params);
    const configurations = store
      .list("portalConfigurations", account)
      .filter(
        (configuration) =>
          (input.active === undefined || configuration.active === input.active) &&
          (input.is_default === undefined || configuration.is_default === input.is_default),
      );
    return paginate(configurations, input, "/v1/billing_portal/configurations", "configuration");
  });
}
