import type Stripe from "stripe";
import type { Emulator } from "../emulator.js";
import type { Scope } from "../state/types.js";
import { AUTOMATIC, type EventOrigin } from "../webhooks/events.js";
import { saveSubscriptionRecord, subscriptionRecord } from "./subscription-records.js";
import { openInvoiceToRetry, renewSubscription } from "./subscriptions.js";

// What the clock does to subscriptions on its own: announce a trial's end, renew, retry.

/** Automatic attempts on one invoice (the first charge and three retries) before the subscription ends. */
export const MAX_PAYMENT_ATTEMPTS = 4;
/** `customer.subscription.trial_will_end` comes three days before the trial ends. */
export const TRIAL_WILL_END_NOTICE_SECONDS = 3 * 86_400;

/**
 * The clock's renewal or retry: the outcome set with `/_emulator/subscriptions/:id/next_renewal` (used
 * once), else paid. The last of `MAX_PAYMENT_ATTEMPTS` failed attempts ends the subscription.
 */
export function renewAutomatically(
  emulator: Emulator,
  account: Scope,
  subscription: Stripe.Subscription,
): Stripe.Subscription {
  const record = subscriptionRecord(emulator, subscription.id);
  const outcome = record.nextRenewal;
  if (outcome !== "paid")
    saveSubscriptionRecord(emulator, subscription.id, { ...record, nextRenewal: "paid" });
  const retrying = openInvoiceToRetry(emulator, account, subscription);
  const final = (retrying?.attempt_count ?? 0) + 1 >= MAX_PAYMENT_ATTEMPTS;
  return renewSubscription(emulator, account, subscription, outcome, final, AUTOMATIC);
}

/** `customer.subscription.trial_will_end`, once per trial end, when the clock is within three days of it. */
export function noticeTrialEnding(
  emulator: Emulator,
  account: Scope,
  subscription: Stripe.Subscription,
  origin: EventOrigin = AUTOMATIC,
): void {
  const trialEnd = subscription.trial_end;
  if (subscription.status !== "trialing" || trialEnd === null) return;
  if (trialEnd - TRIAL_WILL_END_NOTICE_SECONDS > emulator.now()) return;
  const record = subscriptionRecord(emulator, subscription.id);
  if (record.trialWillEndSentFor === trialEnd) return;
  saveSubscriptionRecord(emulator, subscription.id, { ...record, trialWillEndSentFor: trialEnd });
  emulator.events.emit(
    account,
    { type: "customer.subscription.trial_will_end", data: { object: subscription } },
    origin,
  );
}
