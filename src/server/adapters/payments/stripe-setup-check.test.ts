import type Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningStripeEmulator, startStripeEmulator } from "../../../stripe-emulator";
import { ConfigError } from "../../config";
import { PLATFORM_EVENTS, setUpStripeAccount } from "./stripe-account-setup";
import { createStripeClient } from "./stripe-client";
import { checkStripeSetup } from "./stripe-setup-check";

const APP_URL = "https://shop.example.com";

let emulator: RunningStripeEmulator;
let stripe: Stripe;
let warnings: string[];
const logger = { warn: (message: string) => warnings.push(message) };

beforeEach(async () => {
  emulator = await startStripeEmulator({ port: 0, logger: { info() {}, warn() {}, error() {} } });
  stripe = createStripeClient({ kind: "emulator", host: emulator.host, port: emulator.port });
  warnings = [];
});
afterEach(() => emulator.close());

describe("the Stripe check at boot", () => {
  it("is quiet for an account set up by npm run stripe:setup", async () => {
    await setUpStripeAccount(stripe, APP_URL);
    await checkStripeSetup(stripe, APP_URL, logger);
    expect(warnings).toEqual([]);
  });

  it("warns, naming the command, when endpoints or the portal configuration are missing", async () => {
    await checkStripeSetup(stripe, APP_URL, logger);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toContain(`No Stripe webhook endpoint sends to ${APP_URL}/api/webhooks/stripe:`);
    expect(warnings[1]).toContain(`${APP_URL}/api/webhooks/stripe-connect`);
    expect(warnings[2]).toContain("no default billing portal configuration");
    expect(warnings.every((warning) => warning.includes("npm run stripe:setup"))).toBe(true);
  });

  it("refuses to boot when an endpoint is pinned to another API version", async () => {
    await setUpStripeAccount(stripe, APP_URL);
    const connect = (await stripe.webhookEndpoints.list()).data.find((endpoint) =>
      endpoint.url.endsWith("/stripe-connect"),
    );
    await stripe.webhookEndpoints.del(String(connect?.id));
    const old = await stripe.webhookEndpoints.create({
      url: `${APP_URL}/api/webhooks/stripe-connect`,
      enabled_events: ["*"],
      connect: true,
      api_version: "2025-03-31.basil",
    });

    const refusal = await checkStripeSetup(stripe, APP_URL, logger).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (!(refusal instanceof ConfigError)) throw new Error(`expected the boot to be refused, got ${refusal}`);
    expect(refusal.message).toContain(old.id);
    expect(refusal.message).toContain("2025-03-31.basil");
    expect(refusal.message).toContain("npm run stripe:setup -- --recreate");
  });

  it("warns about a disabled endpoint and events it does not send", async () => {
    const setup = await setUpStripeAccount(stripe, APP_URL);
    const [platform] = setup.endpoints;
    await stripe.webhookEndpoints.update(String(platform?.endpoint.id), {
      disabled: true,
      enabled_events: PLATFORM_EVENTS.filter((type) => type !== "invoice.payment_failed"),
    });
    await checkStripeSetup(stripe, APP_URL, logger);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain("is disabled");
    expect(warnings[1]).toContain("does not send invoice.payment_failed");
  });

  it("only warns when Stripe cannot be asked", async () => {
    await emulator.close();
    const unreachable = createStripeClient({ kind: "emulator", host: emulator.host, port: emulator.port });
    await checkStripeSetup(unreachable, APP_URL, logger);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("Could not check the Stripe account's setup");
    emulator = await startStripeEmulator({ port: 0, logger: { info() {}, warn() {}, error() {} } });
  });
});
