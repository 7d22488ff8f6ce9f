import { describe, expect, it } from "vitest";
import { gateScreen, pagesPublicUntil, subscribeReason } from "./seller-gate-logic";
import { sellerStatus } from "./seller-status.fixture";

const notConnected = { accountCreated: false, onboardingComplete: false };

describe("gateScreen", () => {
  it("asks for a subscription first, even when payouts are not set up either", () => {
    expect(
      gateScreen(sellerStatus({ canUseDashboard: false, standing: "none", payouts: notConnected })),
    ).toBe("subscribe");
  });

  it("asks to connect Stripe once the plan is usable", () => {
    expect(gateScreen(sellerStatus({ payouts: notConnected }))).toBe("connect");
    expect(gateScreen(sellerStatus({ payouts: { accountCreated: true, onboardingComplete: false } }))).toBe(
      "connect",
    );
  });

  it("opens the page when both are done, grace included", () => {
    expect(gateScreen(sellerStatus())).toBe("open");
    expect(gateScreen(sellerStatus({ standing: "grace" }))).toBe("open");
  });
});

describe("subscribeReason", () => {
  it("tells never subscribed, lapsed and canceled apart", () => {
    expect(subscribeReason(sellerStatus({ standing: "none", subscription: null }))).toBe("never");
    expect(subscribeReason(sellerStatus({ standing: "lapsed" }))).toBe("lapsed");
    expect(subscribeReason(sellerStatus({ standing: "canceled" }))).toBe("canceled");
  });
});

describe("pagesPublicUntil", () => {
  it("is 30 days after cancellation", () => {
    const status = sellerStatus({ standing: "canceled" });
    if (!status.subscription) throw new Error("fixture has a subscription");
    status.subscription.canceledAt = "2026-11-01T12:00:00.000Z";
    expect(pagesPublicUntil(status)?.toISOString()).toBe("2026-12-01T12:00:00.000Z");
    expect(pagesPublicUntil(sellerStatus({ subscription: null }))).toBeNull();
  });
});
