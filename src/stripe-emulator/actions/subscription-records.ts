import type { Emulator } from "../emulator.js";
import type { SubscriptionRecord } from "../state/types.js";

/** What Stripe keeps about a subscription without showing it (see `SubscriptionRecord`). */
export function subscriptionRecord(emulator: Emulator, id: string): SubscriptionRecord {
  return emulator.store.state.subscriptionRecords[id] ?? { nextRenewal: "paid", trialWillEndSentFor: null };
}

export function saveSubscriptionRecord(emulator: Emulator, id: string, record: SubscriptionRecord): void {
  emulator.store.set("subscriptionRecords", id, record);
}
