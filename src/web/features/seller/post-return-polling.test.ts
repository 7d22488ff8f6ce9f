import { describe, expect, it } from "vitest";
import { isSettled, returnFrom, withoutReturnParam } from "./post-return-polling";
import { sellerStatus } from "./seller-status.fixture";

describe("returning from Stripe", () => {
  it("reads which return it is from the query string", () => {
    expect(returnFrom(new URLSearchParams("subscription=success"))).toBe("subscription");
    expect(returnFrom(new URLSearchParams("stripe_connect=success"))).toBe("stripe_connect");
    expect(returnFrom(new URLSearchParams("subscription=canceled"))).toBeNull();
    expect(returnFrom(new URLSearchParams(""))).toBeNull();
  });

  it("waits for an active plan after checkout", () => {
    expect(isSettled("subscription", sellerStatus())).toBe(true);
    expect(isSettled("subscription", sellerStatus({ standing: "none", subscription: null }))).toBe(false);
    expect(isSettled("subscription", sellerStatus({ standing: "lapsed" }))).toBe(false);
  });

  it("waits for finished onboarding after Connect", () => {
    expect(isSettled("stripe_connect", sellerStatus())).toBe(true);
    expect(
      isSettled(
        "stripe_connect",
        sellerStatus({ payouts: { accountCreated: true, onboardingComplete: false } }),
      ),
    ).toBe(false);
  });

  it("removes only its own parameter", () => {
    expect(withoutReturnParam("?subscription=success", "subscription")).toBe("");
    expect(withoutReturnParam("?stripe_connect=success&ref=x", "stripe_connect")).toBe("?ref=x");
  });
});
