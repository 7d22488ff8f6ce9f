import Stripe from "stripe";

/**
 * What the app needs on a real Stripe account before it can work: two webhook endpoints pinned to the
 * API version this SDK speaks, and a default billing portal configuration. `npm run stripe:setup`
 * makes them (scripts/stripe-setup.ts); boot checks them (stripe-setup-check.ts).
 */

export interface WebhookEndpointSpec {
  name: "platform" | "connect";
  /** Where the app reads this endpoint's signing secret. */
  secretVariable: "STRIPE_WEBHOOK_SECRET" | "STRIPE_CONNECT_WEBHOOK_SECRET";
  url: string;
  connect: boolean;
  events: Stripe.WebhookEndpointCreateParams.EnabledEvent[];
}

/**
 * The events the app handles, and only those: `platformHandlers` (features/billing/events) and
 * `connectHandlers` (app.ts). Anything else would be recorded and ignored.
 */
export const PLATFORM_EVENTS: Stripe.WebhookEndpointCreateParams.EnabledEvent[] = [
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.deleted",
  "customer.subscription.updated",
  "invoice.paid",
  "invoice.payment_failed",
];
export const CONNECT_EVENTS: Stripe.WebhookEndpointCreateParams.EnabledEvent[] = [
  "account.updated",
  "charge.refunded",
  "checkout.session.completed",
  "checkout.session.expired",
];

export function webhookEndpointSpecs(appUrl: string): WebhookEndpointSpec[] {
  return [
    {
      name: "platform",
      secretVariable: "STRIPE_WEBHOOK_SECRET",
      url: `${appUrl}/api/webhooks/stripe`,
      connect: false,
      events: PLATFORM_EVENTS,
    },
    {
      name: "connect",
      secretVariable: "STRIPE_CONNECT_WEBHOOK_SECRET",
      url: `${appUrl}/api/webhooks/stripe-connect`,
      connect: true,
      events: CONNECT_EVENTS,
    },
  ];
}

/** What "Manage billing" needs: change the card, see invoices, cancel at the end of the period. */
export const PORTAL_FEATURES = {
  payment_method_update: { enabled: true },
  invoice_history: { enabled: true },
  subscription_cancel: { enabled: true, mode: "at_period_end" },
} satisfies Stripe.BillingPortal.ConfigurationCreateParams.Features;

export type EndpointOutcome =
  | { spec: WebhookEndpointSpec; action: "created"; endpoint: Stripe.WebhookEndpoint; secret: string }
  | { spec: WebhookEndpointSpec; action: "updated" | "unchanged"; endpoint: Stripe.WebhookEndpoint }
  /** Pinned to another API version, which Stripe never changes; left alone unless asked to re-create. */
  | { spec: WebhookEndpointSpec; action: "wrong_version"; endpoint: Stripe.WebhookEndpoint }
  | {
      spec: WebhookEndpointSpec;
      action: "recreated";
      endpoint: Stripe.WebhookEndpoint;
      secret: string;
      replaced: Stripe.WebhookEndpoint;
    };

export interface PortalOutcome {
  action: "created" | "updated" | "unchanged";
  configuration: Stripe.BillingPortal.Configuration;
}

export interface StripeSetup {
  endpoints: EndpointOutcome[];
  portal: PortalOutcome;
}

/**
 * Makes (or brings up to date) the webhook endpoints and the billing portal configuration. Safe to run
 * again: endpoints are found by URL and only their events are updated.
 */
export async function setUpStripeAccount(
  stripe: Stripe,
  appUrl: string,
  options: { recreateWrongVersion?: boolean } = {},
): Promise<StripeSetup> {
  const existing = await listWebhookEndpoints(stripe);
  const endpoints: EndpointOutcome[] = [];
  for (const spec of webhookEndpointSpecs(appUrl)) {
    endpoints.push(await setUpEndpoint(stripe, spec, findEndpoint(existing, spec), options));
  }
  return { endpoints, portal: await setUpPortal(stripe, appUrl) };
}

export async function listWebhookEndpoints(stripe: Stripe): Promise<Stripe.WebhookEndpoint[]> {
  const endpoints: Stripe.WebhookEndpoint[] = [];
  for await (const endpoint of stripe.webhookEndpoints.list({ limit: 100 })) endpoints.push(endpoint);
  return endpoints;
}

/** Ours is the one sending to our URL; should there be several, the one on the right version. */
export function findEndpoint(
  endpoints: Stripe.WebhookEndpoint[],
  spec: WebhookEndpointSpec,
): Stripe.WebhookEndpoint | undefined {
  const matching = endpoints.filter((endpoint) => endpoint.url === spec.url);
  return matching.find(hasAppApiVersion) ?? matching[0];
}

export function hasAppApiVersion(endpoint: Stripe.WebhookEndpoint): boolean {
  return endpoint.api_version === Stripe.API_VERSION;
}

/** The events the app needs that the endpoint does not send. */
export function missingEvents(endpoint: Stripe.WebhookEndpoint, spec: WebhookEndpointSpec): string[] {
  if (endpoint.enabled_events.includes("*")) return [];
  return spec.events.filter((type) => !endpoint.enabled_events.includes(type));
}

async function setUpEndpoint(
  stripe: Stripe,
  spec: WebhookEndpointSpec,
  endpoint: Stripe.WebhookEndpoint | undefined,
  options: { recreateWrongVersion?: boolean },
): Promise<EndpointOutcome> {
  if (!endpoint) {
    const created = await createEndpoint(stripe, spec);
    return { spec, action: "created", endpoint: created.endpoint, secret: created.secret };
  }
  if (!hasAppApiVersion(endpoint)) {
    if (!options.recreateWrongVersion) return { spec, action: "wrong_version", endpoint };
    await stripe.webhookEndpoints.del(endpoint.id);
    const created = await createEndpoint(stripe, spec);
    return {
      spec,
      action: "recreated",
      endpoint: created.endpoint,
      secret: created.secret,
      replaced: endpoint,
    };
  }
  const sameEvents =
    endpoint.enabled_events.length === spec.events.length && missingEvents(endpoint, spec).length === 0;
  if (sameEvents && endpoint.status === "enabled") return { spec, action: "unchanged", endpoint };
  const updated = await stripe.webhookEndpoints.update(endpoint.id, {
    enabled_events: spec.events,
    disabled: false,
  });
  return { spec, action: "updated", endpoint: updated };
}

async function createEndpoint(stripe: Stripe, spec: WebhookEndpointSpec) {
  const endpoint = await stripe.webhookEndpoints.create({
    url: spec.url,
    enabled_events: spec.events,
    connect: spec.connect,
    // The SDK's own version: the handlers read objects in its shapes (e.g. `invoice.parent`).
    api_version: Stripe.API_VERSION,
    description: `Flatfee ${spec.name} events`,
  });
  if (!endpoint.secret) throw new Error(`Stripe returned no signing secret for ${spec.url}`);
  return { endpoint, secret: endpoint.secret };
}

/** Leaves a default configuration's other settings alone; only switches on what the app needs. */
async function setUpPortal(stripe: Stripe, appUrl: string): Promise<PortalOutcome> {
  const [current] = (await stripe.billingPortal.configurations.list({ is_default: true, limit: 1 })).data;
  if (!current) {
    const configuration = await stripe.billingPortal.configurations.create({
      features: PORTAL_FEATURES,
      default_return_url: `${appUrl}/dashboard`,
    });
    return { action: "created", configuration };
  }
  const { features } = current;
  const enough =
    features.payment_method_update.enabled &&
    features.invoice_history.enabled &&
    features.subscription_cancel.enabled &&
    features.subscription_cancel.mode === "at_period_end";
  if (enough) return { action: "unchanged", configuration: current };
  const configuration = await stripe.billingPortal.configurations.update(current.id, {
    features: PORTAL_FEATURES,
  });
  return { action: "updated", configuration };
}

/** Whether the account is ready: every endpoint on the right version, a default portal configuration. */
export function isSetUp(setup: StripeSetup): boolean {
  return (
    setup.endpoints.every((outcome) => outcome.action !== "wrong_version") &&
    setup.portal.configuration.is_default
  );
}

/** What `npm run stripe:setup` prints: what it did, the secrets to set, and what is left to do. */
export function describeStripeSetup(setup: StripeSetup): string {
  const lines = [`Webhook endpoints (API version ${Stripe.API_VERSION}):`];
  for (const outcome of setup.endpoints) {
    lines.push(`  ${outcome.spec.name.padEnd(8)} ${outcome.spec.url}: ${endpointSummary(outcome)}`);
  }
  const secrets = setup.endpoints.flatMap((outcome) =>
    outcome.action === "created" || outcome.action === "recreated"
      ? [`  ${outcome.spec.secretVariable}=${outcome.secret}`]
      : [],
  );
  if (secrets.length > 0) {
    lines.push(
      "",
      "Set these in the app's environment, then restart it (Stripe shows a signing secret only once):",
      ...secrets,
    );
  }
  const wrong = setup.endpoints.filter((outcome) => outcome.action === "wrong_version");
  if (wrong.length > 0) {
    lines.push(
      "",
      `An endpoint's API version cannot be changed, and on another version the plan's events arrive in shapes the app`,
      `does not read (e.g. invoices without parent.subscription_details), so nothing would happen. Fix it with`,
      "  npm run stripe:setup -- --recreate",
      "which deletes these endpoints, creates new ones and prints their new signing secrets: set them and restart",
      "the app right away (Stripe retries what fails meanwhile).",
    );
  }
  const { portal } = setup;
  lines.push("", `Billing portal: default configuration ${portal.action} (${portal.configuration.id}).`);
  if (!portal.configuration.is_default) {
    lines.push(
      `Stripe did not make ${portal.configuration.id} the default. Save the customer portal settings once in the`,
      "Dashboard (Settings → Billing → Customer portal), then run npm run stripe:setup again.",
    );
  }
  return lines.join("\n");
}

function endpointSummary(outcome: EndpointOutcome): string {
  const id = outcome.endpoint.id;
  switch (outcome.action) {
    case "created":
      return `created (${id})`;
    case "updated":
      return `events updated and enabled (${id})`;
    case "unchanged":
      return `already set up (${id})`;
    case "recreated":
      return `re-created on ${Stripe.API_VERSION} (${id}, replaces ${outcome.replaced.id} on ${outcome.replaced.api_version ?? "the account's default version"})`;
    case "wrong_version":
      return `WRONG API VERSION: ${id} is pinned to ${outcome.endpoint.api_version ?? "the account's default version"}`;
  }
}
