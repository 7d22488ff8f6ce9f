import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { z } from "zod";
import type { ApiRoutes } from "../api.js";
import type { Emulator } from "../emulator.js";
import { invalidRequest, resourceMissing, StripeApiError } from "../errors.js";
import { newId } from "../ids.js";
import { paginate } from "../lists.js";
import {
  boolean,
  emptyable,
  list,
  listParams,
  mergeMetadata,
  metadata,
  parseParams,
  requiredText,
} from "../params.js";
import type { Scope, WebhookEndpointRecord } from "../state/types.js";

/** `*` or a dotted event type (`invoice.paid`, `customer.subscription.updated`). */
const EVENT_TYPE = /^(\*|[a-z_]+(\.[a-z_]+)+)$/;
/** `2026-10-28.endive`: a date and, since 2024, the release's name. */
const API_VERSION = /^(\d{4}-\d{2}-\d{2})(\.[a-z]+)?$/;
const FIRST_API_VERSION = "2011-01-01";

const eventsParam = list(z.string()).pipe(z.array(z.string()).min(1, { error: "parameter_invalid_empty" }));

const createSchema = z.strictObject({
  url: requiredText(),
  enabled_events: eventsParam,
  api_version: z.string().optional(),
  connect: boolean().optional(),
  description: emptyable().optional(),
  metadata: metadata().optional(),
});

// Stripe never changes an endpoint's API version: a new version needs a new endpoint.
const updateSchema = z.strictObject({
  url: requiredText().optional(),
  enabled_events: eventsParam.optional(),
  disabled: boolean().optional(),
  description: emptyable().optional(),
  metadata: metadata().optional(),
});

export function registerWebhookEndpoints(routes: ApiRoutes, emulator: Emulator): void {
  const { store } = emulator;
  const records = () => store.state.webhookEndpoints;
  const recordOf = (id: string): WebhookEndpointRecord => {
    const record = records()[id];
    if (!record) throw resourceMissing("webhook endpoint", id);
    return record;
  };

  routes.post("/v1/webhook_endpoints", ({ account, params }) => {
    platformOnly(account);
    const input = parseParams(createSchema, params);
    const url = checkedUrl(input.url);
    const enabledEvents = checkedEvents(input.enabled_events);
    const endpoint: Stripe.WebhookEndpoint = {
      id: newId("we"),
      object: "webhook_endpoint",
      api_version: input.api_version === undefined ? null : checkedApiVersion(input.api_version),
      application: null,
      created: emulator.now(),
      description: input.description ?? null,
      enabled_events: enabledEvents,
      livemode: false,
      metadata: mergeMetadata({}, input.metadata),
      status: "enabled",
      url,
    };
    const secret = `whsec_${randomBytes(24).toString("base64url")}`;
    store.set("webhookEndpoints", endpoint.id, { endpoint, secret, connect: input.connect ?? false });
    // The signing secret is shown once, in the answer to the create call.
    return { ...endpoint, secret };
  });

  routes.get("/v1/webhook_endpoints/:id", ({ account, id }) => {
    platformOnly(account);
    return recordOf(id).endpoint;
  });

  routes.post("/v1/webhook_endpoints/:id", ({ account, id, params }) => {
    platformOnly(account);
    const record = recordOf(id);
    const input = parseParams(updateSchema, params);
    const { endpoint } = record;
    if (input.url !== undefined) endpoint.url = checkedUrl(input.url);
    if (input.enabled_events !== undefined) endpoint.enabled_events = checkedEvents(input.enabled_events);
    if (input.disabled !== undefined) endpoint.status = input.disabled ? "disabled" : "enabled";
    if (input.description !== undefined) endpoint.description = input.description;
    endpoint.metadata = mergeMetadata(endpoint.metadata, input.metadata);
    store.set("webhookEndpoints", id, record);
    return endpoint;
  });

  routes.delete("/v1/webhook_endpoints/:id", ({ account, id }) => {
    platformOnly(account);
    recordOf(id);
    store.remove("webhookEndpoints", id);
    const deleted: Stripe.DeletedWebhookEndpoint = { id, object: "webhook_endpoint", deleted: true };
    return deleted;
  });

  routes.get("/v1/webhook_endpoints", ({ account, params }) => {
    platformOnly(account);
    const input = parseParams(z.strictObject(listParams), params);
    const endpoints = Object.values(records())
      .map((record) => record.endpoint)
      .reverse();
    return paginate(endpoints, input, "/v1/webhook_endpoints", "webhook endpoint");
  });
}

function platformOnly(account: Scope): void {
  if (account !== null) {
    throw invalidRequest(
      "Webhook endpoints belong to the platform; make them without a Stripe-Account header (with `connect: true` for connected accounts' events).",
    );
  }
}

function checkedUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StripeApiError(400, "invalid_request_error", `Invalid URL: ${value}`, "url_invalid", "url");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new StripeApiError(
      400,
      "invalid_request_error",
      `Invalid URL: ${value}: must be http or https`,
      "url_invalid",
      "url",
    );
  }
  return value;
}

function checkedEvents(events: string[]): string[] {
  events.forEach((type, index) => {
    if (!EVENT_TYPE.test(type)) {
      throw invalidRequest(
        `Invalid enabled_events[${index}]: '${type}' is not an event type.`,
        `enabled_events[${index}]`,
      );
    }
  });
  return events;
}

/** Versions from Stripe's first to the one this SDK speaks; the emulator knows no later one. */
function checkedApiVersion(version: string): string {
  const date = API_VERSION.exec(version)?.[1];
  const newest = Stripe.API_VERSION.slice(0, 10);
  if (!date || date < FIRST_API_VERSION || date > newest) {
    throw invalidRequest(`Invalid api_version: ${version}`, "api_version");
  }
  return version;
}
