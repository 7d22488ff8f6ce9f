import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, stripeError, type TestEmulator } from "./test-support.js";

let emulator: TestEmulator;
let stripe: Stripe;

beforeAll(async () => {
  emulator = await startTestEmulator();
  stripe = emulator.stripe;
});
afterAll(() => emulator.close());

describe("webhook endpoints", () => {
  it("creates an endpoint pinned to an API version, with its secret shown only on create", async () => {
    const created = await stripe.webhookEndpoints.create({
      url: "https://shop.example.com/api/webhooks/stripe",
      enabled_events: ["invoice.paid", "customer.subscription.updated"],
      api_version: Stripe.API_VERSION,
      description: "Plan events",
    });
    expect(created.id).toMatch(/^we_/);
    expect(created).toMatchObject({
      object: "webhook_endpoint",
      url: "https://shop.example.com/api/webhooks/stripe",
      enabled_events: ["invoice.paid", "customer.subscription.updated"],
      api_version: Stripe.API_VERSION,
      status: "enabled",
      description: "Plan events",
      livemode: false,
      application: null,
    });
    expect(created.secret).toMatch(/^whsec_/);

    const retrieved = await stripe.webhookEndpoints.retrieve(created.id);
    expect(retrieved.secret).toBeUndefined();
    expect(retrieved.api_version).toBe(Stripe.API_VERSION);
    const listed = await stripe.webhookEndpoints.list({ limit: 100 });
    expect(listed.data.map((endpoint) => endpoint.id)).toContain(created.id);
    expect(listed.data.every((endpoint) => endpoint.secret === undefined)).toBe(true);
  });

  it("keeps the Connect flag, which Stripe does not show on the object, for the control API", async () => {
    const connect = await stripe.webhookEndpoints.create({
      url: "https://shop.example.com/api/webhooks/stripe-connect",
      enabled_events: ["account.updated"],
      connect: true,
    });
    expect(connect.api_version).toBeNull();
    const { body } = await emulator.control<{
      data: { endpoint: Stripe.WebhookEndpoint; connect: boolean }[];
    }>("/webhook_endpoints");
    expect(body.data.find((record) => record.endpoint.id === connect.id)?.connect).toBe(true);
  });

  it("updates events and disables, but never changes the API version; deletes", async () => {
    const endpoint = await stripe.webhookEndpoints.create({
      url: "https://shop.example.com/hooks",
      enabled_events: ["charge.refunded"],
      api_version: "2024-06-20",
    });
    const updated = await stripe.webhookEndpoints.update(endpoint.id, {
      enabled_events: ["charge.refunded", "checkout.session.completed"],
      disabled: true,
    });
    expect(updated).toMatchObject({
      enabled_events: ["charge.refunded", "checkout.session.completed"],
      status: "disabled",
      api_version: "2024-06-20",
    });
    const versionChange = await stripeError(
      stripe.webhookEndpoints.update(endpoint.id, {
        api_version: Stripe.API_VERSION,
      } as Stripe.WebhookEndpointUpdateParams),
    );
    expect([versionChange.statusCode, versionChange.code, versionChange.param]).toEqual([
      400,
      "parameter_unknown",
      "api_version",
    ]);

    const deleted = await stripe.webhookEndpoints.del(endpoint.id);
    expect(deleted).toMatchObject({ id: endpoint.id, object: "webhook_endpoint", deleted: true });
    const gone = await stripeError(stripe.webhookEndpoints.retrieve(endpoint.id));
    expect([gone.statusCode, gone.code]).toEqual([404, "resource_missing"]);
  });

  it("refuses a bad URL, unknown events and unknown API versions, and creates nothing", async () => {
    const before = (await stripe.webhookEndpoints.list({ limit: 100 })).data.length;
    const missing = await stripeError(
      stripe.webhookEndpoints.create({
        enabled_events: ["invoice.paid"],
      } as Stripe.WebhookEndpointCreateParams),
    );
    expect([missing.statusCode, missing.code, missing.param]).toEqual([400, "parameter_missing", "url"]);
    const badUrl = await stripeError(
      stripe.webhookEndpoints.create({ url: "not a url", enabled_events: ["invoice.paid"] }),
    );
    expect([badUrl.statusCode, badUrl.code, badUrl.param]).toEqual([400, "url_invalid", "url"]);
    const badEvent = await stripeError(
      stripe.webhookEndpoints.create({
        url: "https://shop.example.com/x",
        enabled_events: ["invoice paid!" as Stripe.WebhookEndpointCreateParams.EnabledEvent],
      }),
    );
    expect([badEvent.statusCode, badEvent.param]).toEqual([400, "enabled_events[0]"]);
    const badVersion = await stripeError(
      stripe.webhookEndpoints.create({
        url: "https://shop.example.com/x",
        enabled_events: ["invoice.paid"],
        api_version: "1999-01-01" as Stripe.WebhookEndpointCreateParams.ApiVersion,
      }),
    );
    expect([badVersion.statusCode, badVersion.param]).toEqual([400, "api_version"]);
    expect((await stripe.webhookEndpoints.list({ limit: 100 })).data).toHaveLength(before);
  });

  it("belongs to the platform: a connected account cannot manage them", async () => {
    const seller = await stripe.accounts.create({ type: "standard" });
    const refused = await stripeError(stripe.webhookEndpoints.list({}, { stripeAccount: seller.id }));
    expect(refused.statusCode).toBe(400);
  });
});

describe("billing portal configurations", () => {
  const features: Stripe.BillingPortal.ConfigurationCreateParams.Features = {
    payment_method_update: { enabled: true },
    invoice_history: { enabled: true },
    subscription_cancel: { enabled: true, mode: "at_period_end" },
  };

  it("the first one becomes the default; portal sessions use it unless told otherwise", async () => {
    expect((await stripe.billingPortal.configurations.list({ is_default: true })).data).toEqual([]);
    const first = await stripe.billingPortal.configurations.create({
      features,
      business_profile: { headline: "Flatfee billing" },
      default_return_url: "https://shop.example.com/dashboard",
    });
    expect(first.id).toMatch(/^bpc_/);
    expect(first).toMatchObject({
      object: "billing_portal.configuration",
      active: true,
      is_default: true,
      livemode: false,
      default_return_url: "https://shop.example.com/dashboard",
      business_profile: { headline: "Flatfee billing", privacy_policy_url: null },
      features: {
        payment_method_update: { enabled: true },
        invoice_history: { enabled: true },
        subscription_cancel: { enabled: true, mode: "at_period_end", proration_behavior: "none" },
        subscription_update: { enabled: false },
        customer_update: { enabled: false },
      },
    });
    const second = await stripe.billingPortal.configurations.create({
      features: { invoice_history: { enabled: true } },
    });
    expect(second.is_default).toBe(false);
    expect(
      (await stripe.billingPortal.configurations.list({ is_default: true })).data.map((c) => c.id),
    ).toEqual([first.id]);
    expect((await stripe.billingPortal.configurations.retrieve(second.id)).id).toBe(second.id);

    const customer = await stripe.customers.create({ email: "portal@example.com" });
    const byDefault = await stripe.billingPortal.sessions.create({ customer: customer.id });
    expect(byDefault.configuration).toBe(first.id);
    const chosen = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      configuration: second.id,
    });
    expect(chosen.configuration).toBe(second.id);
    const unknown = await stripeError(
      stripe.billingPortal.sessions.create({ customer: customer.id, configuration: "bpc_missing" }),
    );
    expect([unknown.statusCode, unknown.code, unknown.param]).toEqual([
      400,
      "resource_missing",
      "configuration",
    ]);
  });

  it("updates features, and refuses to deactivate the default", async () => {
    const [current] = (await stripe.billingPortal.configurations.list({ is_default: true })).data;
    if (!current) throw new Error("no default configuration");
    const updated = await stripe.billingPortal.configurations.update(current.id, {
      features: { subscription_cancel: { enabled: true, mode: "immediately" } },
    });
    expect(updated.features.subscription_cancel).toMatchObject({ enabled: true, mode: "immediately" });
    expect(updated.features.invoice_history.enabled).toBe(true);
    expect(updated.updated).toBeGreaterThanOrEqual(current.updated);
    const deactivate = await stripeError(
      stripe.billingPortal.configurations.update(current.id, { active: false }),
    );
    expect(deactivate.statusCode).toBe(400);
  });
});
