import type { SellerStatus } from "../../../contracts/seller";

/** A seller with an active plan and finished payouts; override what a test needs. */
export function sellerStatus(overrides: Partial<SellerStatus> = {}): SellerStatus {
  return {
    subscription: {
      status: "active",
      currentPeriodEnd: "2026-12-22T12:00:00.000Z",
      cancelAtPeriodEnd: false,
      pastDueSince: null,
      graceEndsAt: null,
      canceledAt: null,
    },
    standing: "active",
    canUseDashboard: true,
    canSell: true,
    hasBillingAccount: true,
    storeCurrency: "usd",
    payouts: { accountCreated: true, onboardingComplete: true },
    ...overrides,
  };
}
