import {
  type BillingInterval,
  type MembershipChangePreview,
  yearlySavingPercent,
} from "../../../contracts/memberships";
import { formatMoney } from "../../../contracts/money";
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

/*
 * Amounts are in the membership's currency (membership-format.ts `membershipCurrency`): "$15.00",
 * "€15.00", "¥1,500".
 */

/** "$15.00 / month", or "$15.00 / month or $150.00 / year": what a tier costs, in the dialog's tier list. */
export function tierPriceLine(
  tier: Pick<SwitchableTier, "monthlyPriceCents" | "yearlyPriceCents">,
  currency: string,
): string {
  const monthly = `${formatMoney(tier.monthlyPriceCents, currency)} / month`;
  return tier.yearlyPriceCents === null
    ? monthly
    : `${monthly} or ${formatMoney(tier.yearlyPriceCents, currency)} / year`;
}

/** "$5.00", "−$4.87": a preview line's amount (a credit for unused time is negative). */
export const signedPrice = (cents: number, currency: string): string =>
  cents < 0 ? `−${formatMoney(-cents, currency)}` : formatMoney(cents, currency);

/** The preview's headline: what is charged now, or the credit the switch leaves. */
export function changeDueLine(
  preview: Pick<MembershipChangePreview, "amountDueCents" | "creditCents">,
  currency: string,
): string {
  if (preview.creditCents > 0) {
    return `Nothing to pay now; ${formatMoney(preview.creditCents, currency)} credit goes to your next payments.`;
  }
  if (preview.amountDueCents > 0) {
    return `You'll be charged ${formatMoney(preview.amountDueCents, currency)} now.`;
  }
  return "Nothing to pay now.";
}

/** "Then $15.00 per month.": what each period costs after the switch. */
export const changeThenLine = (
  preview: Pick<MembershipChangePreview, "amountCents" | "interval">,
  currency: string,
): string =>
  `Then ${formatMoney(preview.amountCents, currency)} per ${preview.interval === "year" ? "year" : "month"}.`;

/** "Patron, billed monthly": the choice the preview prices. */
export const changeChoiceLine = (preview: Pick<MembershipChangePreview, "tierName" | "interval">): string =>
  `${preview.tierName}, billed ${preview.interval === "year" ? "yearly" : "monthly"}`;
