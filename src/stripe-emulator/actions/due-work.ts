import type { Emulator } from "../emulator.js";
import { subscriptionPeriod } from "../objects/subscription.js";
import { expireIfDue } from "./checkout.js";
import { renewSubscription } from "./subscriptions.js";

/**
 * What happens on its own as (emulated) time passes: Checkout Sessions expire, and subscriptions whose
 * period ended renew (paid with the saved card) or end if they were set to cancel at period end.
 */
export function runDueWork(emulator: Emulator): void {
  const { state } = emulator.store;
  for (const { account, object: session } of Object.values(state.checkoutSessions)) {
    expireIfDue(emulator, account, session);
  }
  for (const { account, object: subscription } of Object.values(state.subscriptions)) {
    // A bounded loop: a large clock jump renews once per elapsed period, like Stripe's test clocks.
    for (let periods = 0; periods < 120; periods++) {
      if (subscription.status !== "active" || subscriptionPeriod(subscription).end > emulator.now()) break;
      renewSubscription(emulator, account, subscription, "paid", false);
    }
  }
}
