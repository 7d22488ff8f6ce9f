import Stripe from "stripe";
import { ConfigError } from "../../config";
import {
  findEndpoint,
  hasAppApiVersion,
  listWebhookEndpoints,
  missingEvents,
  webhookEndpointSpecs,
} from "./stripe-account-setup";

interface Logger {
  warn(message: string): void;
}

const FIX = "Run `npm run stripe:setup` (see README, Configuration for production).";

/**
 * At boot with real Stripe keys: are the webhook endpoints and the billing portal set up? An endpoint on
 * another API version stops the boot, since the plan's handlers would silently do nothing with its
 * events; anything else missing is logged, so the operator sees it and the rest of the app still runs.
 */
export async function checkStripeSetup(stripe: Stripe, appUrl: string, logger: Logger): Promise<void> {
  let endpoints: Stripe.WebhookEndpoint[];
  let portalDefaults: Stripe.BillingPortal.Configuration[];
  try {
    endpoints = await listWebhookEndpoints(stripe);
    portalDefaults = (await stripe.billingPortal.configurations.list({ is_default: true, limit: 1 })).data;
  } catch (error) {
    logger.warn(`Could not check the Stripe account's setup (${String(error)}). ${FIX}`);
    return;
  }

  const wrongVersions: string[] = [];
  for (const spec of webhookEndpointSpecs(appUrl)) {
    const endpoint = findEndpoint(endpoints, spec);
    if (!endpoint) {
      logger.warn(
        `No Stripe webhook endpoint sends to ${spec.url}: ${spec.name} events will never arrive. ${FIX}`,
      );
    } else if (!hasAppApiVersion(endpoint)) {
      wrongVersions.push(
        `The Stripe webhook endpoint ${endpoint.id} (${spec.url}) sends events in API version ${endpoint.api_version ?? "of the account's default"}, but this app reads ${Stripe.API_VERSION}: its events would be misread and silently ignored.`,
      );
    } else {
      if (endpoint.status !== "enabled")
        logger.warn(`The Stripe webhook endpoint ${endpoint.id} (${spec.url}) is disabled. ${FIX}`);
      const missing = missingEvents(endpoint, spec);
      if (missing.length > 0)
        logger.warn(
          `The Stripe webhook endpoint ${endpoint.id} (${spec.url}) does not send ${missing.join(", ")}. ${FIX}`,
        );
    }
  }
  if (wrongVersions.length > 0) {
    throw new ConfigError(
      [
        ...wrongVersions,
        "An endpoint's API version cannot be changed. Run `npm run stripe:setup -- --recreate`: it replaces the",
        "endpoint and prints its new signing secret to set before starting the app again.",
      ].join("\n"),
    );
  }
  if (portalDefaults.length === 0)
    logger.warn(`Stripe has no default billing portal configuration: "Manage billing" will fail. ${FIX}`);
}
