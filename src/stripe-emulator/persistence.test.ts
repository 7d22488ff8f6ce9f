import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startStripeEmulator } from "./index.js";
import { createPlanSession, sdkFor, silentLogger } from "./test-support.js";

const directory = mkdtempSync(join(tmpdir(), "stripe-emulator-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

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
});
