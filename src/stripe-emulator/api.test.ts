import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPurchaseSession,
  sdkFor,
  startTestEmulator,
  stripeError,
  type TestEmulator,
} from "./test-support.js";

let emulator: TestEmulator;
let stripe: Stripe;

beforeAll(async () => {
  emulator = await startTestEmulator();
  stripe = emulator.stripe;
});
afterAll(() => emulator.close());

describe("wire format and errors", () => {
  it("answers the SDK's health check and sends a Request-Id", async () => {
    const list = await stripe.customers.list({ limit: 1 });
    expect(list.object).toBe("list");
    expect(list.lastResponse.requestId).toMatch(/^req_/);
  });

  it("requires a Bearer test key (401 in Stripe's error shape)", async () => {
    const missing = await fetch(`${emulator.running.url}/v1/customers`);
    expect(missing.status).toBe(401);
    const body = await missing.json();
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.message).toMatch(/did not provide an API key/);
    expect(missing.headers.get("request-id")).toMatch(/^req_/);

    const basic = await fetch(`${emulator.running.url}/v1/customers`, {
      headers: { authorization: `Basic ${Buffer.from("sk_test_curl:").toString("base64")}` },
    });
    expect(basic.status).toBe(200);

    const live = new Stripe("sk_live_nope", {
      host: "127.0.0.1",
      port: emulator.running.port,
      protocol: "http",
    });
    const error = await stripeError(live.customers.list());
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(error.statusCode).toBe(401);
  });

  it("answers 404 resource_missing for unknown ids", async () => {
    const error = await stripeError(stripe.customers.retrieve("cus_doesnotexist"));
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error.statusCode).toBe(404);
    expect(error.code).toBe("resource_missing");
    expect(error.param).toBe("id");
    expect(error.message).toBe("No such customer: 'cus_doesnotexist'");
  });

  it("rejects unknown, missing and malformed parameters with Stripe's codes", async () => {
    const unknown = await stripeError(
      stripe.customers.create({ colour: "red" } as Stripe.CustomerCreateParams),
    );
    expect([unknown.statusCode, unknown.code, unknown.param]).toEqual([400, "parameter_unknown", "colour"]);

    const missing = await stripeError(
      stripe.checkout.sessions.create({ mode: "payment", success_url: "http://x/s" }),
    );
    expect([missing.statusCode, missing.code, missing.param]).toEqual([
      400,
      "parameter_missing",
      "line_items",
    ]);

    const nested = await stripeError(
      stripe.checkout.sessions.create({
        mode: "payment",
        line_items: [{ quantity: 1, price_data: { unit_amount: 100, product_data: { name: "x" } } as never }],
      }),
    );
    expect([nested.code, nested.param]).toEqual(["parameter_missing", "line_items[0][price_data][currency]"]);

    const badInteger = await fetch(`${emulator.running.url}/v1/prices`, {
      method: "POST",
      headers: { authorization: "Bearer sk_test_x", "content-type": "application/x-www-form-urlencoded" },
      body: "currency=usd&unit_amount=ten&product_data[name]=x",
    });
    const badIntegerBody = await badInteger.json();
    expect(badInteger.status).toBe(400);
    expect(badIntegerBody.error).toMatchObject({ code: "parameter_invalid_integer", param: "unit_amount" });
  });

  it("answers unknown URLs like Stripe", async () => {
    const response = await fetch(`${emulator.running.url}/v1/nothing_here`, {
      headers: { authorization: "Bearer sk_test_x" },
    });
    expect(response.status).toBe(404);
    expect((await response.json()).error.message).toMatch(
      /^Unrecognized request URL \(GET: \/v1\/nothing_here\)/,
    );
  });

  it("replays the first response for a repeated Idempotency-Key and refuses other parameters", async () => {
    const first = await stripe.customers.create({ email: "idem@example.com" }, { idempotencyKey: "key-1" });
    const again = await stripe.customers.create({ email: "idem@example.com" }, { idempotencyKey: "key-1" });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers["idempotent-replayed"]).toBe("true");

    const conflict = await stripeError(
      stripe.customers.create({ email: "other@example.com" }, { idempotencyKey: "key-1" }),
    );
    expect(conflict).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(conflict.statusCode).toBe(400);
    expect(conflict.type).toBe("StripeIdempotencyError");
    expect(conflict.raw).toMatchObject({ type: "idempotency_error" });
  });
});

describe("customers", () => {
  it("creates, retrieves, updates and lists", async () => {
    const created = await stripe.customers.create({
      email: "ada@example.com",
      name: "Ada",
      metadata: { user: "u1" },
    });
    expect(created.id).toMatch(/^cus_/);
    expect(created).toMatchObject({
      object: "customer",
      email: "ada@example.com",
      livemode: false,
      balance: 0,
    });
    expect(created.invoice_settings.default_payment_method).toBeNull();

    const updated = await stripe.customers.update(created.id, {
      name: "Ada L.",
      metadata: { user: "", plan: "pro" },
    });
    expect(updated.name).toBe("Ada L.");
    expect(updated.metadata).toEqual({ plan: "pro" });

    const retrieved = await stripe.customers.retrieve(created.id);
    expect(retrieved).toMatchObject({ id: created.id, name: "Ada L." });

    const byEmail = await stripe.customers.list({ email: "ada@example.com" });
    expect(byEmail.data.map((customer) => customer.id)).toEqual([created.id]);
  });

  it("paginates newest first", async () => {
    const a = await stripe.customers.create({ email: "page@example.com" });
    const b = await stripe.customers.create({ email: "page@example.com" });
    const first = await stripe.customers.list({ email: "page@example.com", limit: 1 });
    expect(first.data[0]?.id).toBe(b.id);
    expect(first.has_more).toBe(true);
    const second = await stripe.customers.list({ email: "page@example.com", limit: 1, starting_after: b.id });
    expect(second.data[0]?.id).toBe(a.id);
    expect(second.has_more).toBe(false);
  });
});

describe("prices and products", () => {
  it("creates a recurring price with product_data and finds it by lookup key", async () => {
    const price = await stripe.prices.create({
      currency: "usd",
      unit_amount: 1000,
      recurring: { interval: "month" },
      lookup_key: "flatfee_monthly",
      product_data: { name: "Flatfee" },
    });
    expect(price.id).toMatch(/^price_/);
    expect(price).toMatchObject({ type: "recurring", unit_amount: 1000, lookup_key: "flatfee_monthly" });
    expect(price.recurring).toMatchObject({ interval: "month", interval_count: 1, usage_type: "licensed" });
    expect(String(price.product)).toMatch(/^prod_/);

    const found = await stripe.prices.list({ lookup_keys: ["flatfee_monthly"], expand: ["data.product"] });
    expect(found.data.map((item) => item.id)).toEqual([price.id]);
    expect(found.data[0]?.product).toMatchObject({ object: "product", name: "Flatfee" });

    const duplicate = await stripeError(
      stripe.prices.create({
        currency: "usd",
        unit_amount: 1000,
        lookup_key: "flatfee_monthly",
        product_data: { name: "x" },
      }),
    );
    expect(duplicate.param).toBe("lookup_key");
  });
});

describe("Stripe-Account scoping", () => {
  it("keeps each account's objects to itself", async () => {
    const one = await stripe.accounts.create({ type: "standard", email: "one@example.com" });
    const two = await stripe.accounts.create({ type: "standard", email: "two@example.com" });
    const session = await createPurchaseSession(stripe, one.id);

    const own = await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: one.id });
    expect(own.id).toBe(session.id);
    for (const options of [{ stripeAccount: two.id }, {}]) {
      const error = await stripeError(stripe.checkout.sessions.retrieve(session.id, {}, options));
      expect(error.statusCode).toBe(404);
      expect(error.code).toBe("resource_missing");
    }

    const customer = await stripe.customers.create(
      { email: "scoped@example.com" },
      { stripeAccount: one.id },
    );
    expect((await stripeError(stripe.customers.retrieve(customer.id))).statusCode).toBe(404);
    const listed = await stripe.customers.list({ limit: 100 }, { stripeAccount: two.id });
    expect(listed.data).toEqual([]);
  });

  it("refuses an account the platform does not have", async () => {
    const error = await stripeError(stripe.customers.list({}, { stripeAccount: "acct_unknown" }));
    expect(error.statusCode).toBe(403);
    expect(error.code).toBe("account_invalid");
  });

  it("uses the SDK's own key per request too", async () => {
    const other = sdkFor(emulator.running.port, { apiVersion: Stripe.API_VERSION });
    expect((await other.customers.list({ limit: 1 })).object).toBe("list");
  });
});
