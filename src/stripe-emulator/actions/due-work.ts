import type { Emulator } from "../emulator.js";
import { subscriptionPeriod } from "../objects/subscription.js";
import { noticeTrialEnding, renewAutomatically } from "./automatic-billing.js";
import { expireIfDue } from "./checkout.js";
import { closeOverdueDisputes } from "./disputes.js";
import { openInvoiceToRetry } from "./subscriptions.js";

/**
 * What happens on its own as (emulated) time passes: Checkout Sessions expire; trials announce their end
 * three days ahead; subscriptions whose period (or trial) ended renew with the saved card, or end if set
 * to cancel at period end; past-due invoices are retried on their `next_payment_attempt`; disputes
 * still waiting for a response when their `evidence_details.due_by` passed are lost.
 */
export function runDueWork(emulator: Emulator): void {
  const { state } = emulator.store;
  for (const { account, object: session } of Object.values(state.checkoutSessions)) {
    expireIfDue(emulator, account, session);
  }
  for (const { account, object: subscription } of Object.values(state.subscriptions)) {
    // A bounded loop: a large clock jump renews once per elapsed period, like Stripe's test clocks.
    for (let periods = 0; periods < 120; periods++) {
      noticeTrialEnding(emulator, account, subscription);
      const now = emulator.now();
      const { status } = subscription;
      const periodOver =
        (status === "active" || status === "trialing") && subscriptionPeriod(subscription).end <= now;
      const retry = openInvoiceToRetry(emulator, account, subscription);
      const retryDue = retry?.next_payment_attempt != null && retry.next_payment_attempt <= now;
      if (!periodOver && !retryDue) break;
      renewAutomatically(emulator, account, subscription);
    }
  }
  closeOverdueDisputes(emulator);
}
