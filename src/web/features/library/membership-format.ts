import type { Translator } from "../../../contracts/i18n/make-translator";
import type { LibraryMembership } from "../../../contracts/orders";
import { ENGLISH } from "../../lib/i18n";

type Tone = "neutral" | "brand" | "success" | "warning" | "danger";

/** The status badge's colour: green while it runs, amber when it needs the member, grey once over. */
export const MEMBERSHIP_STATUS_TONES: Record<LibraryMembership["status"], Tone> = {
  trialing: "brand",
  active: "success",
  past_due: "warning",
  canceling: "warning",
  ended: "neutral",
};

/**
 * The currency a membership's amounts are in: its latest period's (what the member paid in); US
 * dollars before any period (the library has no other word of it yet).
 */
export const membershipCurrency = (membership: Pick<LibraryMembership, "period">): string =>
  membership.period?.currency ?? "usd";

/*
 * The lines below speak the page's language (the translator from useI18n(); English when left out):
 * amounts with `money`, days with `date` (UTC, as every buyer page writes them).
 */

/** "$5.00 / month", "5,00 $ / Monat": what each period costs the member, in `currency` (membershipCurrency). */
export const membershipPriceLabel = (
  membership: Pick<LibraryMembership, "amountCents" | "interval">,
  currency: string,
  i18n: Translator = ENGLISH,
) =>
  i18n.t("library.pricePer", {
    price: i18n.money(membership.amountCents, currency),
    interval: membership.interval,
  });

/** Where the membership goes next, in a line: renews, trial ends, access ends, or ended. */
export function membershipDateLine(
  membership: Pick<LibraryMembership, "status" | "currentPeriodEnd" | "trialEnd" | "hasAccess">,
  i18n: Translator = ENGLISH,
): string {
  const day = (date: string) => i18n.date(new Date(date));
  const date = day(membership.currentPeriodEnd);
  switch (membership.status) {
    case "trialing":
      return i18n.t("library.trialUntil", { date: day(membership.trialEnd ?? membership.currentPeriodEnd) });
    case "active":
      return i18n.t("library.renewsOn", { date });
    case "canceling":
      return i18n.t("library.accessUntil", { date });
    case "past_due":
      return i18n.t(membership.hasAccess ? "library.paymentFailed" : "library.paymentFailedPaused");
    case "ended":
      return i18n.t("library.endedOn", { date });
  }
}

/** Posts shown before "Show older posts". */
export const POSTS_SHOWN_FIRST = 3;

/** The posts the card shows: the newest few, or all once the member asked for older ones. */
export const shownPosts = <T>(posts: readonly T[], showAll: boolean): readonly T[] =>
  showAll ? posts : posts.slice(0, POSTS_SHOWN_FIRST);
