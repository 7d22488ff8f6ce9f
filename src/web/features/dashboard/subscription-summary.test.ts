import { describe, expect, it } from "vitest";
import { sellerStatus } from "../seller/seller-status.fixture";
import { renewalLine, statusLabel, statusTone } from "./subscription-summary";

function subscription(overrides: Partial<NonNullable<ReturnType<typeof sellerStatus>["subscription"]>>) {
  const base = sellerStatus().subscription;
  if (!base) throw new Error("fixture has a subscription");
  return { ...base, ...overrides };
}

describe("subscription summary", () => {
  it("labels and colours the status: active green, anything else grey", () => {
    expect(statusLabel("active")).toBe("Active");
    expect(statusLabel("past_due")).toBe("Past due");
    expect(statusTone("active")).toBe("success");
    expect(statusTone("past_due")).toBe("neutral");
    expect(statusTone("canceled")).toBe("neutral");
  });

  it("says when the plan renews, or when it cancels", () => {
    expect(renewalLine(subscription({}))).toBe("Renews on December 22, 2026");
    expect(renewalLine(subscription({ cancelAtPeriodEnd: true }))).toBe("Cancels on December 22, 2026");
    expect(renewalLine(subscription({ currentPeriodEnd: null }))).toBeNull();
    expect(renewalLine(subscription({ status: "canceled" }))).toBeNull();
  });

  it("says when a payment failed instead of a renewal that will not happen unpaid", () => {
    expect(renewalLine(subscription({ status: "past_due", pastDueSince: "2026-11-22T12:00:00.000Z" }))).toBe(
      "Payment failed on November 22, 2026",
    );
  });
});
