import Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningStripeEmulator, startStripeEmulator } from "../../../stripe-emulator";
import { ConfigError, loadStripeSetupConfig } from "../../config";
import { subscriptionEventHandlers } from "../../features/billing/events/subscription-events";
import {
  CONNECT_EVENTS,
  describeStripeSetup,
  isSetUp,
  PLATFORM_EVENTS,
  PORTAL_FEATURES,
  setUpStripeAccount,
} from "./stripe-account-setup";
import { createStripeClient } from "./stripe-client";

const APP_URL = "https://shop.example.com";
const PLATFORM_URL = `${APP_URL}/api/webhooks/stripe`;
const CONNECT_URL = `${APP_URL}/api/webhooks/stripe-connect`;

let emulator: RunningStripeEmulator;
let stripe: Stripe;

beforeEach(async () => {
  emulator = await startStripeEmulator({ port: 0, logger: { info() {}, warn() {}, error() {} } });
  stripe = createStripeClient({ kind: "emulator", host: emulator.host, port: emulator.port });
});
afterEach(() => emulator.close());

/** The emulator's record of each endpoint: what Stripe never shows again (the secret, `connect`). */
async function endpointRecords() {
  const response = await fetch(`${emulator.url}/_emulator/webhook_endpoints`);
  const body: { data: { endpoint: Stripe.WebhookEndpoint; secret: string; connect: boolean }[] } =
    await response.json();
  return body.data;
}

describe("npm run stripe:setup", () => {
  it("creates both endpoints on the SDK's API version and a default portal configuration, and prints the secrets", async () => {
    const setup = await setUpStripeAccount(stripe, APP_URL);

    expect(setup.endpoints.map((outcome) => [outcome.spec.name, outcome.action])).toEqual([
      ["platform", "created"],
      ["connect", "created"],
    ]);
    const records = await endpointRecords();
    const platform = records.find((record) => record.endpoint.url === PLATFORM_URL);
    const connect = records.find((record) => record.endpoint.url === CONNECT_URL);
    expect(records).toHaveLength(2);
    expect(platform).toMatchObject({
      connect: false,
      endpoint: { api_version: Stripe.API_VERSION, enabled_events: PLATFORM_EVENTS, status: "enabled" },
    });
    expect(connect).toMatchObject({
      connect: true,
      endpoint: { api_version: Stripe.API_VERSION, enabled_events: CONNECT_EVENTS, status: "enabled" },
    });

    expect(setup.portal.action).toBe("created");
    const [portal] = (await stripe.billingPortal.configurations.list({ is_default: true })).data;
    expect(portal?.id).toBe(setup.portal.configuration.id);
    expect(portal?.features).toMatchObject(PORTAL_FEATURES);

    const printed = describeStripeSetup(setup);
    expect(printed).toContain(`STRIPE_WEBHOOK_SECRET=${platform?.secret}`);
    expect(printed).toContain(`STRIPE_CONNECT_WEBHOOK_SECRET=${connect?.secret}`);
    expect(isSetUp(setup)).toBe(true);
  });

  it("can run again: it finds the endpoints by URL, changes nothing and shows no secret", async () => {
    const first = await setUpStripeAccount(stripe, APP_URL);
    const again = await setUpStripeAccount(stripe, APP_URL);

    expect(again.endpoints.map((outcome) => outcome.action)).toEqual(["unchanged", "unchanged"]);
    expect(again.endpoints.map((outcome) => outcome.endpoint.id)).toEqual(
      first.endpoints.map((outcome) => outcome.endpoint.id),
    );
    expect(again.portal).toMatchObject({
      action: "unchanged",
      configuration: { id: first.portal.configuration.id },
    });
    expect(await endpointRecords()).toHaveLength(2);
    expect(describeStripeSetup(again)).not.toMatch(/WEBHOOK_SECRET=/);
  });

  it("puts back events and features changed since, and enables a disabled endpoint", async () => {
    const first = await setUpStripeAccount(stripe, APP_URL);
    const [platform, connect] = first.endpoints.map((outcome) => outcome.endpoint.id);
    await stripe.webhookEndpoints.update(String(platform), { disabled: true });
    await stripe.webhookEndpoints.update(String(connect), { enabled_events: ["account.updated"] });
    await stripe.billingPortal.configurations.update(first.portal.configuration.id, {
      features: { subscription_cancel: { enabled: true, mode: "immediately" } },
    });

    const again = await setUpStripeAccount(stripe, APP_URL);

    expect(again.endpoints.map((outcome) => outcome.action)).toEqual(["updated", "updated"]);
    expect(await stripe.webhookEndpoints.retrieve(String(platform))).toMatchObject({ status: "enabled" });
    expect((await stripe.webhookEndpoints.retrieve(String(connect))).enabled_events).toEqual(CONNECT_EVENTS);
    expect(again.portal.action).toBe("updated");
    expect(again.portal.configuration.features.subscription_cancel.mode).toBe("at_period_end");
  });

  it("reports an endpoint on another API version and leaves it, then replaces it when asked to", async () => {
    const old = await stripe.webhookEndpoints.create({
      url: PLATFORM_URL,
      enabled_events: PLATFORM_EVENTS,
      api_version: "2024-06-20",
    });

    const reported = await setUpStripeAccount(stripe, APP_URL);
    expect(reported.endpoints.map((outcome) => outcome.action)).toEqual(["wrong_version", "created"]);
    expect(isSetUp(reported)).toBe(false);
    const advice = describeStripeSetup(reported);
    expect(advice).toContain(`WRONG API VERSION: ${old.id} is pinned to 2024-06-20`);
    expect(advice).toContain("npm run stripe:setup -- --recreate");
    expect((await stripe.webhookEndpoints.retrieve(old.id)).api_version).toBe("2024-06-20");

    const replaced = await setUpStripeAccount(stripe, APP_URL, { recreateWrongVersion: true });
    const [platform] = replaced.endpoints;
    expect(platform?.action).toBe("recreated");
    expect(platform?.endpoint).toMatchObject({ url: PLATFORM_URL, api_version: Stripe.API_VERSION });
    expect((await stripe.webhookEndpoints.list()).data.map((endpoint) => endpoint.id)).not.toContain(old.id);
    const secret = (await endpointRecords()).find(
      (record) => record.endpoint.id === platform?.endpoint.id,
    )?.secret;
    expect(describeStripeSetup(replaced)).toContain(`STRIPE_WEBHOOK_SECRET=${secret}`);
    expect(isSetUp(replaced)).toBe(true);
  });

  it("asks for exactly the platform events the plan's handlers handle", () => {
    expect([...PLATFORM_EVENTS].sort()).toEqual(Object.keys(subscriptionEventHandlers(stripe)).sort());
  });
});

describe("the setup's configuration", () => {
  it("needs the secret key and the app's public URL, nothing else", () => {
    expect(
      loadStripeSetupConfig({ STRIPE_SECRET_KEY: "sk_test_x", APP_URL: "https://shop.example.com/" }),
    ).toEqual({ secretKey: "sk_test_x", appUrl: "https://shop.example.com" });
    expect(() => loadStripeSetupConfig({ STRIPE_SECRET_KEY: "sk_test_x" })).toThrow(ConfigError);
    expect(() => loadStripeSetupConfig({ STRIPE_SECRET_KEY: "sk_test_x" })).toThrow(/APP_URL/);
    expect(() => loadStripeSetupConfig({ APP_URL: "https://shop.example.com" })).toThrow(/STRIPE_SECRET_KEY/);
  });
});
