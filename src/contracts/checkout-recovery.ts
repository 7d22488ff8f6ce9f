import { z } from "zod";

/**
 * Checkout recovery (docs/checkout-recovery.md): one email to a buyer who left Checkout unpaid, after
 * agreeing on Checkout to hear from the store, with a way back to the same product at the same price.
 */
export const RECOVERY_RULES = {
  /** The email goes this long after the session expired. */
  delayMs: 60 * 60 * 1000,
  /** At most one recovery email per buyer email and product within this long. */
  perBuyerProductMs: 7 * 24 * 60 * 60 * 1000,
  /** A recovery link works this long after its email was written (Stripe's own recovery URLs: 30 days). */
  linkValidMs: 30 * 24 * 60 * 60 * 1000,
} as const;

/** Why a scheduled recovery email was not sent (kept on its row, for the operator and tests). */
export const RECOVERY_SKIP_REASONS = [
  "turned_off",
  "product_unavailable",
  "bought",
  "unsubscribed",
  "sent_this_week",
] as const;
export type RecoverySkipReason = (typeof RECOVERY_SKIP_REASONS)[number];

export const RECOVERY_MESSAGES = {
  linkInvalid: "This link is not valid. It may have been copied incompletely.",
  linkExpired: "This link has expired. Visit the store to buy this product.",
  productUnavailable: "This product is no longer available.",
  saved: "Recovery emails saved.",
  loadFailed: "Could not load your recovery email setting.",
} as const;

export const recoverySettingsSchema = z.object({
  /** Email buyers who left Checkout (and agreed to hear from the store) once, an hour later. */
  enabled: z.boolean(),
});
export type RecoverySettings = z.infer<typeof recoverySettingsSchema>;
