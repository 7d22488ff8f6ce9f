import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { type RunningStripeEmulator, type StripeEmulatorOptions, startStripeEmulator } from "./index.js";

// Helpers shared by the emulator's own tests: an emulator on a free port with the real SDK
// pointed at it, and a small HTTP server that records the webhooks it receives.

export const PLATFORM_SECRET = "whsec_platform_test";
export const CONNECT_SECRET = "whsec_connect_test";

export const silentLogger = { info: () => {}, warn: () => {}, error: () => {} };

export interface ReceivedWebhook {
  body: string;
  signature: string;
  event: Stripe.Event;
}

/** Records webhooks; `respondWith` decides each response status (default 200). */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  respondWith: (webhook: ReceivedWebhook) => number = () => 200;
  private server: Server | undefined;
  url = "";

  constructor(
    private readonly secret: string,
    private readonly stripe: Stripe,
  ) {}

  async listen(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const signature = String(request.headers["stripe-signature"] ?? "");
        try {
          const event = this.stripe.webhooks.constructEvent(body, signature, this.secret);
          const webhook = { body, signature, event };
          this.received.push(webhook);
          response.statusCode = this.respondWith(webhook);
        } catch {
          response.statusCode = 400;
        }
        response.end();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}/webhooks`;
    return this;
  }

  events(type?: string): Stripe.Event[] {
    return this.received.map((webhook) => webhook.event).filter((event) => !type || event.type === type);
  }

  /** Waits until `count` events of `type` arrived (webhooks are delivered asynchronously). */
  async waitFor(type: string, count = 1, timeoutMs = 5000): Promise<Stripe.Event[]> {
    const started = Date.now();
    while (Date.now() - started < timeoutMs) {
      const events = this.events(type);
      if (events.length >= count) return events;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(
      `Timed out waiting for ${count} × ${type}; got ${this.events()
        .map((event) => event.type)
        .join(", ")}`,
    );
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

export interface TestEmulator {
  running: RunningStripeEmulator;
  stripe: Stripe;
  platform: WebhookReceiver;
  connect: WebhookReceiver;
  /** POSTs (or GETs, without a body) JSON to the control API. */
  control<T = unknown>(path: string, body?: unknown): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

export function sdkFor(port: number, options: Partial<Stripe.StripeConfig> = {}): Stripe {
  return new Stripe("sk_test_emulator", {
    host: "127.0.0.1",
    port,
    protocol: "http",
    maxNetworkRetries: 0,
    ...options,
  });
}

export async function startTestEmulator(options: StripeEmulatorOptions = {}): Promise<TestEmulator> {
  const running = await startStripeEmulator({ port: 0, logger: silentLogger, ...options });
  const stripe = sdkFor(running.port);
  const platform = await new WebhookReceiver(PLATFORM_SECRET, stripe).listen();
  const connect = await new WebhookReceiver(CONNECT_SECRET, stripe).listen();
  running.configureWebhooks({
    platform: { url: platform.url, secret: PLATFORM_SECRET },
    connect: { url: connect.url, secret: CONNECT_SECRET },
  });
  return {
    running,
    stripe,
    platform,
    connect,
    async control<T>(path: string, body?: unknown) {
      const response = await fetch(`${running.url}/_emulator${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const parsed: T = await response.json();
      return { status: response.status, body: parsed };
    },
    async close() {
      await running.close();
      await platform.close();
      await connect.close();
    },
  };
}

/** A one-time payment session on a connected account, as the app creates it for a buyer. */
export async function createPurchaseSession(
  stripe: Stripe,
  account: string,
  overrides: Partial<Stripe.Checkout.SessionCreateParams> = {},
) {
  return stripe.checkout.sessions.create(
    {
      mode: "payment",
      line_items: [
        {
          quantity: 1,
          price_data: { currency: "usd", unit_amount: 1500, product_data: { name: "Field recordings" } },
        },
      ],
      customer_email: "buyer@example.com",
      metadata: { order: "ord_1" },
      payment_intent_data: { metadata: { order: "ord_1" } },
      success_url: "http://127.0.0.1:9/done?session={CHECKOUT_SESSION_ID}",
      cancel_url: "http://127.0.0.1:9/cancel",
      ...overrides,
    },
    { stripeAccount: account },
  );
}

/** The platform's $10/month plan, and a subscription session for a seller who is a customer. */
export async function createPlanSession(
  stripe: Stripe,
  overrides: Partial<Stripe.Checkout.SessionCreateParams> = {},
) {
  const customer = await stripe.customers.create({ email: "seller@example.com" });
  const price = await stripe.prices.create({
    currency: "usd",
    unit_amount: 1000,
    recurring: { interval: "month" },
    lookup_key: `plan_${customer.id}`,
    product_data: { name: "Flatfee plan" },
  });
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    customer: customer.id,
    client_reference_id: "seller_1",
    line_items: [{ price: price.id, quantity: 1 }],
    subscription_data: { metadata: { seller: "seller_1" } },
    success_url: "http://127.0.0.1:9/plan?session={CHECKOUT_SESSION_ID}",
    cancel_url: "http://127.0.0.1:9/plan",
    ...overrides,
  });
  return { customer, price, session };
}

/** Stripe errors as the SDK throws them, for `expect(...).rejects`. */
export async function stripeError(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) return error;
    throw error;
  }
  throw new Error("Expected a Stripe error");
}

/** Polls `check` until it returns a value (or throws after `timeoutMs`). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 8000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error("Timed out waiting for a condition");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A seller's membership on their connected account: a monthly price and a subscription Checkout for it. */
export async function createMembershipSession(
  stripe: Stripe,
  account: string,
  overrides: Partial<Stripe.Checkout.SessionCreateParams> = {},
  unitAmount = 500,
) {
  const scoped = { stripeAccount: account };
  const price = await stripe.prices.create(
    {
      currency: "usd",
      unit_amount: unitAmount,
      recurring: { interval: "month" },
      product_data: { name: "Supporter membership" },
    },
    scoped,
  );
  const session = await stripe.checkout.sessions.create(
    {
      mode: "subscription",
      line_items: [{ price: price.id, quantity: 1 }],
      customer_email: "member@example.com",
      metadata: { membership: "m_1" },
      subscription_data: { metadata: { membership: "m_1" } },
      success_url: "http://127.0.0.1:9/joined?session={CHECKOUT_SESSION_ID}",
      cancel_url: "http://127.0.0.1:9/membership",
      ...overrides,
    },
    scoped,
  );
  return { price, session };
}

/** The event types the emulator logged on one account about the given objects, oldest first. */
export async function loggedEventTypes(
  emulator: TestEmulator,
  account: string | undefined,
  ids: Set<string>,
  after?: string,
): Promise<string[]> {
  const { body } = await emulator.control<{ data: { event: Stripe.Event }[] }>("/events");
  const records = body.data.map((record) => record.event);
  const start = after ? records.findIndex((event) => event.id === after) + 1 : 0;
  return records
    .slice(start)
    .filter((event) => {
      const object = event.data.object as {
        id: string;
        parent?: Stripe.Invoice.Parent | null;
        customer?: string | null;
      };
      return (
        event.account === account &&
        (ids.has(object.id) ||
          ids.has(String(object.parent?.subscription_details?.subscription)) ||
          (object.customer !== undefined && ids.has(String(object.customer))))
      );
    })
    .map((event) => event.type);
}

/** The id of the newest event in the log, to look at what came after it. */
export async function lastEventId(emulator: TestEmulator): Promise<string | undefined> {
  const { body } = await emulator.control<{ data: { event: Stripe.Event }[] }>("/events");
  return body.data.at(-1)?.event.id;
}
