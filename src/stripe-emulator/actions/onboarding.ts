import type Stripe from "stripe";
import type { Emulator } from "../emulator.js";
import { completeOnboarding } from "../objects/account.js";
import { snapshot } from "../state/snapshot.js";
import { AUTOMATIC } from "../webhooks/events.js";

/** Finishes onboarding as the hosted form would, and tells the Connect endpoint (`account.updated`). */
export function finishOnboarding(emulator: Emulator, account: Stripe.Account): Stripe.Account {
  const previous: Partial<Stripe.Account> = {
    charges_enabled: account.charges_enabled,
    details_submitted: account.details_submitted,
    payouts_enabled: account.payouts_enabled,
    requirements: snapshot(account.requirements),
  };
  completeOnboarding(account, emulator.now());
  emulator.store.set("accounts", account.id, account);
  emulator.events.emit(
    account.id,
    { type: "account.updated", data: { object: account, previous_attributes: previous } },
    AUTOMATIC,
  );
  return account;
}
