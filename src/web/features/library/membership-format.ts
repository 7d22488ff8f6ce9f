import { formatDay } from "../../../contracts/download-terms";
import { MEMBERSHIP_LIMITS } from "../../../contracts/memberships";
import { formatMoney } from "../../../contracts/money";
import type { LibraryMembership } from "../../../contracts/orders";

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

/** "$5.00 / month": what each period costs the member, in `currency` (membershipCurrency). */
export const membershipPriceLabel = (
  membership: Pick<LibraryMembership, "amountCents" | "interval">,
  currency: string,
) =>
  `${formatMoney(membership.amountCents, currency)} / ${membership.interval === "year" ? "year" : "month"}`;

/** Where the membership goes next, in a line: renews, trial ends, access ends, or ended. */
export function membershipDateLine(
  membership: Pick<LibraryMembership, "status" | "currentPeriodEnd" | "trialEnd" | "hasAccess">,
): string {
  const periodEnd = formatDay(membership.currentPeriodEnd);
  switch (membership.status) {
    case "trialing":
      return `Trial until ${formatDay(membership.trialEnd ?? membership.currentPeriodEnd)}`;
    case "active":
      return `Renews on ${periodEnd}`;
    case "canceling":
      return `Access until ${periodEnd}`;
    case "past_due":
      return membership.hasAccess
        ? "The last payment failed: update your card with Manage membership to keep access."
        : "The last payment failed, so access is paused: update your card with Manage membership.";
    case "ended":
      return `Ended on ${periodEnd}`;
  }
}

/** The period's download rule, as members read it under their files. */
export const PERIOD_DOWNLOADS = `You can download each file up to ${MEMBERSHIP_LIMITS.downloadsPerFilePerPeriod} times per billing period.`;

/** Posts shown before "Show older posts". */
export const POSTS_SHOWN_FIRST = 3;

/** The posts the card shows: the newest few, or all once the member asked for older ones. */
export const shownPosts = <T>(posts: readonly T[], showAll: boolean): readonly T[] =>
  showAll ? posts : posts.slice(0, POSTS_SHOWN_FIRST);
