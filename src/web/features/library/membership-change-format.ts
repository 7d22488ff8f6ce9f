import {
  type BillingInterval,
  type MembershipChangePreview,
  yearlySavingPercent,
} from "../../../contracts/memberships";
import { formatPrice } from "../../../contracts/money";
import type { LibraryMembership } from "../../../contracts/orders";

export type SwitchableTier = LibraryMembership["switchableTiers"][number];
export type MembershipChoice = { tierId: string; interval: BillingInterval };

type Switchable = Pick<LibraryMembership, "tierId" | "interval" | "switchableTiers">;

/**
 * Whether the member has something to switch to: another tier, or their own tier at the other
 * interval. `switchableTiers` is empty unless the membership is active or trialing.
 */
export function canSwitchMembership(membership: Switchable): boolean {
  const { tierId, interval, switchableTiers } = membership;
  if (switchableTiers.some((tier) => tier.id !== tierId)) return true;
  const own = switchableTiers.find((tier) => tier.id === tierId);
  return own !== undefined && (interval === "year" || own.yearlyPriceCents !== null);
}

/** Where the dialog starts: the member's own tier and interval (or the first tier, monthly, once theirs is gone). */
export function initialChoice(membership: Switchable): MembershipChoice {
  const own = membership.switchableTiers.find((tier) => tier.id === membership.tierId);
  if (own) return { tierId: own.id, interval: membership.interval };
  return { tierId: membership.switchableTiers[0]?.id ?? "", interval: "month" };
}

/** A tier chosen: the interval stays, unless the tier has no yearly price (then monthly). */
export function chooseTier(tier: SwitchableTier, interval: BillingInterval): MembershipChoice {
  return { tierId: tier.id, interval: tier.yearlyPriceCents === null ? "month" : interval };
}

export const isSameChoice = (
  membership: Pick<LibraryMembership, "tierId" | "interval">,
  choice: MembershipChoice,
) => membership.tierId === choice.tierId && membership.interval === choice.interval;

/** "Save 16%" next to a yearly price that saves something against twelve months; null otherwise. */
export function yearlySavingLabel(tier: Pick<SwitchableTier, "monthlyPriceCents" | "yearlyPriceCents">) {
  const percent = yearlySavingPercent(tier.monthlyPriceCents, tier.yearlyPriceCents);
  return percent > 0 ? `Save ${percent}%` : null;
}

/** "$15.00 / month", or "$15.00 / month or $150.00 / year": what a tier costs, in the dialog's tier list. */
export function tierPriceLine(tier: Pick<SwitchableTier, "monthlyPriceCents" | "yearlyPriceCents">): string {
  const monthly = `${formatPrice(tier.monthlyPriceCents)} / month`;
  return tier.yearlyPriceCents === null
    ? monthly
    : `${monthly} or ${formatPrice(tier.yearlyPriceCents)} / year`;
}

/** "$5.00", "−$4.87": a preview line's amount (a credit for unused time is negative). */
export const signedPrice = (cents: number): string =>
  cents < 0 ? `−${formatPrice(-cents)}` : formatPrice(cents);

/** The preview's headline: what is charged now, or the credit the switch leaves. */
export function changeDueLine(
  preview: Pick<MembershipChangePreview, "amountDueCents" | "creditCents">,
): string {
  if (preview.creditCents > 0) {
    return `Nothing to pay now; ${formatPrice(preview.creditCents)} credit goes to your next payments.`;
  }
  if (preview.amountDueCents > 0) return `You'll be charged ${formatPrice(preview.amountDueCents)} now.`;
  return "Nothing to pay now.";
}

/** "Then $15.00 per month.": what each period costs after the switch. */
export const changeThenLine = (preview: Pick<MembershipChangePreview, "amountCents" | "interval">): string =>
  `Then ${formatPrice(preview.amountCents)} per ${preview.interval === "year" ? "year" : "month"}.`;

/** "Patron, billed monthly": the choice the preview prices. */
export const changeChoiceLine = (preview: Pick<MembershipChangePreview, "tierName" | "interval">): string =>
  `${preview.tierName}, billed ${preview.interval === "year" ? "yearly" : "monthly"}`;
