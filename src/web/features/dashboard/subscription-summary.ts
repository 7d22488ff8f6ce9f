import type { SellerStatus } from "../../../contracts/seller";
import { formatDay } from "../seller/seller-gate-logic";

type Subscription = NonNullable<SellerStatus["subscription"]>;

/** 'Active', 'Past due', ... from Stripe's status. */
export function statusLabel(status: string): string {
  const words = status.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Active is green, anything else grey (product rules, States and transitions). */
export function statusTone(status: string): "success" | "neutral" {
  return status === "active" ? "success" : "neutral";
}

/**
 * 'Renews on {date}', or 'Cancels on {date}' when canceling at period end; after a failed payment
 * 'Payment failed on {date}' instead (it does not renew until paid). Null without a date.
 */
export function renewalLine(subscription: Subscription): string | null {
  if (subscription.status === "past_due" && subscription.pastDueSince) {
    return `Payment failed on ${formatDay(subscription.pastDueSince)}`;
  }
  if (!subscription.currentPeriodEnd || subscription.status === "canceled") return null;
  const day = formatDay(subscription.currentPeriodEnd);
  return subscription.cancelAtPeriodEnd ? `Cancels on ${day}` : `Renews on ${day}`;
}
