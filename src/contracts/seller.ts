import { z } from "zod";

export const GRACE_PERIOD_DAYS = 3;
export const PAGES_PUBLIC_AFTER_CANCEL_DAYS = 30;
export const PLAN_PRICE_CENTS = 1000;

/**
 * How a seller's plan stands:
 * active: all works; grace: payment failed < 3 days ago, all works, banner shown;
 * lapsed: payment failed ≥ 3 days ago (or unpaid/incomplete): purchases disabled, pages visible;
 * canceled: purchases disabled, pages visible 30 days; none: never subscribed.
 */
export const planStandingSchema = z.enum(["none", "active", "grace", "lapsed", "canceled"]);
export type PlanStanding = z.infer<typeof planStandingSchema>;

export const sellerStatusSchema = z.object({
  subscription: z
    .object({
      status: z.string(),
      currentPeriodEnd: z.string().nullable(),
      cancelAtPeriodEnd: z.boolean(),
      pastDueSince: z.string().nullable(),
      graceEndsAt: z.string().nullable(),
      canceledAt: z.string().nullable(),
    })
    .nullable(),
  standing: planStandingSchema,
  canUseDashboard: z.boolean(),
  canSell: z.boolean(),
  hasBillingAccount: z.boolean(),
  /** The currency the store sells and counts in (contracts/currencies.ts): every amount the seller sees. */
  storeCurrency: z.string(),
  payouts: z.object({ accountCreated: z.boolean(), onboardingComplete: z.boolean() }),
});
export type SellerStatus = z.infer<typeof sellerStatusSchema>;

export const redirectSchema = z.object({ url: z.string().url() });

export const BILLING_MESSAGES = {
  subscribeFailed: "Failed to start subscription. Please try again.",
  connectFailedTitle: "Error",
  connectFailed: "Failed to connect Stripe. Please try again.",
  portalFailed: "Failed to open subscription management. Please try again.",
  paymentSuccessful: "Payment Successful! Setting up your account...",
  stripeConnectedTitle: "Stripe Connected!",
  stripeConnected: "Your account is ready to accept payments",
  connectSlowTitle: "Taking longer than expected",
  connectSlow: "Please refresh the page in a moment",
  alreadySubscribed: "Your subscription is already active.",
  fixCardInstead: "Your last payment failed. Update your card in Manage Billing to reactivate your plan.",
  noBillingAccount: "You don't have a billing account yet. Subscribe first.",
  subscriptionRequired: "An active subscription is required.",
} as const;

/** product rules, States and transitions: poll every second, up to 30 times, after returning from Stripe. */
export const POST_CHECKOUT_POLL = { intervalMs: 1000, maxAttempts: 30 } as const;
