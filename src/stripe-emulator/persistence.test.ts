import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type Stripe from "stripe";
import { afterAll, describe, expect, it } from "vitest";
import { Emulator } from "./emulator.js";
import { startStripeEmulator } from "./index.js";
import { buildCustomer } from "./objects/customer.js";
import { buildServer } from "./server.js";
import { Store } from "./state/store.js";
import {
  CONNECT_SECRET,
  createPlanSession,
  createPurchaseSession,
  eventually,
  sdkFor,
  silentLogger,
  WebhookReceiver,
} from "./test-support.js";

const directory = mkdtempSync(join(tmpdir(), "stripe-emulator-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const form = (fields: Record<string, string>) => ({
  method: "POST",
  redirect: "manual" as const,
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});
const CARD = { card_number: "4242424242424242", card_expiry: "12 / 34", card_cvc: "123" };

describe("persistence", () => {
  it("keeps accounts, customers and subscriptions across a restart with the same state file", async () => {
    const stateFile = join(directory, "state.json");
    const first = await startStripeEmulator({ port: 0, stateFile, logger: silentLogger });
    const stripe = sdkFor(first.port);
    const account = await stripe.accounts.create({ type: "standard", email: "kept@example.com" });
    const { customer, session } = await createPlanSession(stripe);
    await fetch(`${first.url}/_emulator/checkout/sessions/${session.id}/complete`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const subscriptionId = String((await stripe.checkout.sessions.retrieve(session.id)).subscription);
    await first.close();

    const second = await startStripeEmulator({ port: 0, stateFile, logger: silentLogger });
    try {
      const again = sdkFor(second.port);
      expect((await again.accounts.retrieve(account.id)).email).toBe("kept@example.com");
      expect((await again.customers.retrieve(customer.id)).id).toBe(customer.id);
      const subscription = await again.subscriptions.retrieve(subscriptionId);
      expect(subscription.status).toBe("active");
      expect(String(subscription.items.data[0]?.price.unit_amount_decimal)).toBe("1000");
      const price = await again.prices.list({ lookup_keys: [`plan_${customer.id}`] });
      expect(price.data).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it("has every change on disk before it answers: the state read back equals the state in memory", async () => {
    const stateFile = join(directory, "in-memory-vs-disk.json");
    const emulator = new Emulator(stateFile, silentLogger, {});
    const app = buildServer(emulator);
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    emulator.publicUrl = url;
    try {
      const stripe = sdkFor(Number(new URL(url).port));
      // What a restart would start from.
      const onDisk = () => {
        const restarted = new Store(stateFile);
        restarted.close();
        return JSON.stringify(restarted.state);
      };
      const inMemory = () => JSON.stringify(emulator.store.state);
      const control = (path: string, body: object = {}) =>
        fetch(`${url}/_emulator${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });

      // A bit of everything: API calls, hosted pages, control calls, and the clock.
      const seller = await stripe.accounts.create({ type: "standard", email: "disk@example.com" });
      await stripe.accounts.update(seller.id, { business_profile: { name: "Disk Records" } });
      const link = await stripe.accountLinks.create({
        account: seller.id,
        type: "account_onboarding",
        refresh_url: "http://127.0.0.1:9/refresh",
        return_url: "http://127.0.0.1:9/return",
      });
      await fetch(link.url);
      await fetch(link.url, form({ action: "complete" }));
      expect(onDisk()).toBe(inMemory());

      const purchase = await createPurchaseSession(stripe, seller.id);
      await fetch(`${url}/c/pay/${purchase.id}`, form({ email: "buyer@example.com", ...CARD }));
      expect(onDisk()).toBe(inMemory());
      const paid = await stripe.checkout.sessions.retrieve(purchase.id, {}, { stripeAccount: seller.id });
      await stripe.refunds.create(
        { payment_intent: String(paid.payment_intent), amount: 100 },
        { stripeAccount: seller.id },
      );
      await stripe.checkout.sessions.expire(
        (await createPurchaseSession(stripe, seller.id)).id,
        {},
        { stripeAccount: seller.id },
      );
      expect(onDisk()).toBe(inMemory());

      const { customer, price, session } = await createPlanSession(stripe);
      await control(`/checkout/sessions/${session.id}/complete`);
      await stripe.prices.create({
        currency: "usd",
        unit_amount: 1000,
        recurring: { interval: "month" },
        lookup_key: String(price.lookup_key),
        transfer_lookup_key: true,
        product: String(price.product),
      });
      await stripe.customers.update(customer.id, { name: "Disk Seller" });
      const subscription = String((await stripe.checkout.sessions.retrieve(session.id)).subscription);
      const portal = await stripe.billingPortal.sessions.create({ customer: customer.id });
      await fetch(`${portal.url}/subscriptions/${subscription}/update-card`, form(CARD));
      await fetch(`${portal.url}/subscriptions/${subscription}/cancel-at-period-end`, form({}));
      await control(`/subscriptions/${subscription}/renew`, { outcome: "failed" });
      await control("/clock/advance", { seconds: 40 * 86_400 });
      expect(onDisk()).toBe(inMemory());

      await stripe.customers.create({ email: "key@example.com" }, { idempotencyKey: "kept-key" });
      await stripe.webhookEndpoints.create({ url: "http://127.0.0.1:9/hooks", enabled_events: ["*"] });
      expect(onDisk()).toBe(inMemory());
    } finally {
      await app.close();
      emulator.stop();
      await emulator.webhooks.close();
      emulator.store.close();
    }
  });

  it("reads back every committed change, ignoring a last journal line a crash cut short", async () => {
    const stateFile = join(directory, "journal.json");
    const store = new Store(stateFile);
    const customer = buildCustomer("cus_journaled", 1_700_000_000, {
      email: "journaled@example.com",
      name: null,
      description: null,
      phone: null,
      metadata: {},
    });
    store.put("customers", null, customer);
    store.commit();
    customer.name = "Renamed";
    store.put("customers", null, customer);
    store.commit();
    // A crash while appending the next commit: half a line, never answered.
    appendFileSync(`${stateFile}.journal`, '[{"section":"customers","id":"cus_half","val');

    const reopened = new Store(stateFile);
    expect(reopened.find("customers", null, "cus_journaled")).toMatchObject({ name: "Renamed" });
    expect(reopened.find("customers", null, "cus_half")).toBeUndefined();
    // Reopening folded the journal into the snapshot and started a clean one.
    expect(readFileSync(`${stateFile}.journal`, "utf8")).toBe("");
    reopened.close();
    store.close();
  });

  it("keeps a purchase paid on the hosted page when the process is killed right after answering", async () => {
    const workDirectory = mkdtempSync(join(directory, "killed-"));
    const receiver = await new WebhookReceiver(CONNECT_SECRET, sdkFor(1)).listen();
    // Before the kill the app is "down": the event stays pending and must be sent after the restart.
    receiver.respondWith = () => 503;
    const first = await startEmulatorProcess(workDirectory, receiver.url);
    let sessionId = "";
    let seller: Stripe.Account;
    try {
      const stripe = sdkFor(first.port);
      seller = await stripe.accounts.create({ type: "standard", email: "killed@example.com" });
      sessionId = (await createPurchaseSession(stripe, seller.id)).id;
      const paid = await fetch(
        `${first.url}/c/pay/${sessionId}`,
        form({ email: "buyer@example.com", ...CARD }),
      );
      first.process.kill("SIGKILL");
      expect(paid.status).toBe(303);
    } finally {
      first.process.kill("SIGKILL");
      if (first.process.exitCode === null && first.process.signalCode === null)
        await once(first.process, "exit");
    }

    receiver.respondWith = () => 200;
    const second = await startEmulatorProcess(workDirectory, receiver.url);
    try {
      const stripe = sdkFor(second.port);
      const session = await stripe.checkout.sessions.retrieve(sessionId, {}, { stripeAccount: seller.id });
      expect(session).toMatchObject({ status: "complete", payment_status: "paid" });
      const intent = await stripe.paymentIntents.retrieve(
        String(session.payment_intent),
        { expand: ["latest_charge"] },
        { stripeAccount: seller.id },
      );
      expect(intent.status).toBe("succeeded");
      expect((intent.latest_charge as Stripe.Charge).paid).toBe(true);
      const completed = await eventually(async () =>
        receiver
          .events("checkout.session.completed")
          .find((event) => (event.data.object as Stripe.Checkout.Session).id === sessionId),
      );
      expect(completed.account).toBe(seller.id);
    } finally {
      second.process.kill("SIGKILL");
      await receiver.close();
    }
  });
});

/** `npm run stripe-emulator` as a real child process, in its own directory (state in ./data). */
async function startEmulatorProcess(cwd: string, connectWebhookUrl: string) {
  // Node itself with tsx's loader (not the tsx CLI, which would run it in a grandchild SIGKILL misses).
  const loader = pathToFileURL(resolve("node_modules/tsx/dist/loader.mjs")).href;
  const cli = resolve("src/stripe-emulator/cli.ts");
  const child: ChildProcess = spawn(process.execPath, ["--import", loader, cli], {
    cwd,
    env: {
      ...process.env,
      STRIPE_EMULATOR_PORT: "0",
      STRIPE_CONNECT_WEBHOOK_URL: connectWebhookUrl,
      STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolveUrl(match[1]);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.on("exit", (code) => reject(new Error(`emulator exited (${code}): ${output}`)));
  });
  return { process: child, url, port: Number(new URL(url).port) };
}
