import type { Translator } from "../../../contracts/i18n/make-translator";
import {
  type BillingInterval,
  type MembershipChangePreview,
  yearlySavingPercent,
} from "../../../contracts/memberships";
import type { LibraryMembership } from "../../../contracts/orders";
import { ENGLISH } from "../../lib/i18n";

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
export function yearlySavingLabel(
  tier: Pick<SwitchableTier, "monthlyPriceCents" | "yearlyPriceCents">,
  i18n: Translator = ENGLISH,
) {
  const percent = yearlySavingPercent(tier.monthlyPriceCents, tier.yearlyPriceCents);
  return percent > 0 ? i18n.t("membership.save", { percent }) : null;
}

/*
 * Amounts are in the membership's currency (membership-format.ts `membershipCurrency`): "$15.00",
 * "€15.00", "¥1,500", written as the page's language writes them (the translator from useI18n();
 * English when left out): "15,00 €".
 */

/** "$15.00 / month", or "$15.00 / month or $150.00 / year": what a tier costs, in the dialog's tier list. */
export function tierPriceLine(
  tier: Pick<SwitchableTier, "monthlyPriceCents" | "yearlyPriceCents">,
  currency: string,
  i18n: Translator = ENGLISH,
): string {
  const monthly = i18n.money(tier.monthlyPriceCents, currency);
  return tier.yearlyPriceCents === null
    ? i18n.t("library.pricePer", { price: monthly, interval: "month" })
    : i18n.t("switch.tierPrices", { monthly, yearly: i18n.money(tier.yearlyPriceCents, currency) });
}

/** "$5.00", "−$4.87": a preview line's amount (a credit for unused time is negative). */
export const signedPrice = (cents: number, currency: string, i18n: Translator = ENGLISH): string =>
  cents < 0 ? `−${i18n.money(-cents, currency)}` : i18n.money(cents, currency);

/** The preview's headline: what is charged now, or the credit the switch leaves. */
export function changeDueLine(
  preview: Pick<MembershipChangePreview, "amountDueCents" | "creditCents">,
  currency: string,
  i18n: Translator = ENGLISH,
): string {
  if (preview.creditCents > 0) {
    return i18n.t("switch.dueCredit", { credit: i18n.money(preview.creditCents, currency) });
  }
  if (preview.amountDueCents > 0) {
    return i18n.t("switch.dueNow", { amount: i18n.money(preview.amountDueCents, currency) });
  }
  return i18n.t("switch.dueNothing");
}

/** "Then $15.00 per month.": what each period costs after the switch. */
export const changeThenLine = (
  preview: Pick<MembershipChangePreview, "amountCents" | "interval">,
  currency: string,
  i18n: Translator = ENGLISH,
): string =>
  i18n.t("switch.then", { price: i18n.money(preview.amountCents, currency), interval: preview.interval });

/** "Patron, billed monthly": the choice the preview prices. */
export const changeChoiceLine = (
  preview: Pick<MembershipChangePreview, "tierName" | "interval">,
  i18n: Translator = ENGLISH,
): string => i18n.t("switch.choice", { tier: preview.tierName, interval: preview.interval });
