import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { control } from "./support/emulator-control";
import { openEventStream } from "./support/event-stream";
import { createTestApp, signUp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
});
afterAll(async () => {
  await t.close();
});

describe("realtime events", () => {
  it("pushes subscription and payout changes to the seller's open browser, and only to them", async () => {
    const seller = await signUp(t);
    const other = await signUp(t);
    const sellerStream = await openEventStream(t.url!, seller.cookie);
    const otherStream = await openEventStream(t.url!, other.cookie);

    const checkout = await t.request({ method: "POST", url: "/api/billing/checkout", cookie: seller.cookie });
    await control(t.emulator).payCheckout(new URL(checkout.json().url).pathname.split("/").pop()!);
    await eventually(async () =>
      expect(sellerStream.received).toContainEqual({ type: "subscription.changed" }),
    );

    await t.request({ method: "POST", url: "/api/payouts/onboarding", cookie: seller.cookie });
    const profile = await t.db
      .selectFrom("profiles")
      .select("stripe_connect_account_id")
      .where("id", "=", seller.userId)
      .executeTakeFirstOrThrow();
    await control(t.emulator).completeOnboarding(profile.stripe_connect_account_id!);
    await eventually(async () => expect(sellerStream.received).toContainEqual({ type: "payouts.changed" }));

    expect(otherStream.received).toEqual([]);
    sellerStream.close();
    otherStream.close();
  });
});
