import {
  type BillingInterval,
  MEMBER_STATUS_FILTERS,
  MEMBERSHIP_STATUS_LABELS,
  type Member,
} from "../../../contracts/memberships";
import { formatMoney } from "../../../contracts/money";
import { DASHBOARD_LOCALE } from "../../lib/money";
import { formatSaleDate } from "../sales/sale-format";

/** The members page's words: statuses, periods and what each action did, in one place. */

export type MemberStatus = Member["status"];
export type MemberStatusFilter = (typeof MEMBER_STATUS_FILTERS)[number];

export const INTERVAL_LABELS: Record<BillingInterval, string> = { month: "Monthly", year: "Yearly" };

/** "$5.00 / month", "$50.00 / year": what one period costs, in the store currency. */
export const amountPerPeriod = (member: Pick<Member, "amountCents" | "interval">, currency: string): string =>
  `${formatMoney(member.amountCents, currency, DASHBOARD_LOCALE)} / ${member.interval}`;

/** The status filter's options, in the order the select lists them. */
export const STATUS_FILTER_OPTIONS: Array<{ value: MemberStatusFilter; label: string }> =
  MEMBER_STATUS_FILTERS.map((value) => ({
    value,
    label: value === "all" ? "All" : MEMBERSHIP_STATUS_LABELS[value],
  }));

export const isStatusFilter = (value: string): value is MemberStatusFilter =>
  (MEMBER_STATUS_FILTERS as readonly string[]).includes(value);

/**
 * Each status its own badge colour (the label always says it too): a trial brand blue, active green,
 * past due red (a payment failed), ending at period end amber, ended grey.
 */
export const STATUS_TONES = {
  trialing: "brand",
  active: "success",
  past_due: "danger",
  canceling: "warning",
  ended: "neutral",
} as const satisfies Record<MemberStatus, string>;

/**
 * The date that matters next, with what it is: a trial's first payment, a renewal, the end a
 * cancellation set, or when it ended. A past-due member's period has started unpaid (Stripe retries
 * the payment), so its end is "Period ends", not a renewal.
 */
export function periodDate(member: Pick<Member, "status" | "currentPeriodEnd" | "endedAt">): {
  label: string;
  date: string;
} {
  switch (member.status) {
    case "trialing":
      return { label: "First payment on", date: formatSaleDate(member.currentPeriodEnd) };
    case "active":
      return { label: "Renews on", date: formatSaleDate(member.currentPeriodEnd) };
    case "past_due":
      return { label: "Period ends", date: formatSaleDate(member.currentPeriodEnd) };
    case "canceling":
      return { label: "Ends on", date: formatSaleDate(member.currentPeriodEnd) };
    case "ended":
      return { label: "Ended", date: formatSaleDate(member.endedAt ?? member.currentPeriodEnd) };
  }
}

/** "Renews on Apr 03, 2026 14:05". */
export const periodDateLine = (member: Pick<Member, "status" | "currentPeriodEnd" | "endedAt">): string => {
  const { label, date } = periodDate(member);
  return `${label} ${date}`;
};

/**
 * A membership that is not over but gives no access now: the seller ended the paid period with a
 * refund, or a failed payment outlasted its grace days. The next payment brings it back.
 */
export function accessNote(member: Pick<Member, "status" | "hasAccess">): string | null {
  if (member.hasAccess || member.status === "ended") return null;
  // Canceled at period end: no next payment will come.
  return member.status === "canceling" ? "No access" : "No access until their next payment";
}

/** The member's name in menus and dialogs: several memberships may share an email. */
export const memberName = (member: Pick<Member, "email" | "productTitle" | "tierName">): string =>
  `${member.email} (${member.productTitle}, ${member.tierName})`;

/** What the actions menu offers a member, by status. */
export function availableActions(member: Pick<Member, "status" | "lifetimeSpendCents">) {
  return {
    cancelAtPeriodEnd: member.status !== "canceling" && member.status !== "ended",
    cancelNow: member.status !== "ended",
    /** Lifetime spend counts completed payments only: none left means nothing to refund. */
    refundLastPayment: member.lifetimeSpendCents > 0,
  };
}

export const MEMBERS_COPY = {
  title: "Members",
  intro: "Everyone subscribed to your memberships, newest first, with what each has paid you so far.",
  loadFailed: "Error loading members",
  noMembers: "No members yet",
  noMembersHint:
    "Members appear here once someone subscribes to one of your membership products. Create a membership product and share its link.",
  noMatches: "No member matches these filters",
  exported: "Your members were saved as a CSV file.",
  cancelNowTitle: "Cancel membership now?",
  cancelNowKeep: "Keep membership",
  cancelNowConfirm: "Cancel now",
  cancelNowBusy: "Canceling...",
  refundTitle: "Refund last payment?",
  refundKeep: "Don't refund",
  refundConfirm: "Refund",
  refundBusy: "Refunding...",
  refundEndAccess: "Also end access for the period it paid for",
  refundEndAccessHint: "Their access comes back with their next payment.",
} as const;

/** The cancel-now dialog's warning: access ends at once. */
export const cancelNowWarning = (member: Pick<Member, "email" | "productTitle">): string =>
  `${member.email} loses access to ${member.productTitle} at once and is not charged again. Payments already made are not refunded.`;

/** The refund dialog's explanation. */
export const refundExplanation = (member: Pick<Member, "email">): string =>
  `The latest payment ${member.email} made for this membership goes back to them in full through Stripe. The membership itself goes on: cancel it too to stop the next charge.`;

/** The confirmation after an action, from the member the server answered with. */
export type MemberActionKind = "cancel-period-end" | "cancel-now" | "refund";

export function actionDoneMessage(
  kind: MemberActionKind,
  before: Pick<Member, "lifetimeSpendCents">,
  after: Pick<
    Member,
    "email" | "productTitle" | "status" | "currentPeriodEnd" | "lifetimeSpendCents" | "hasAccess"
  >,
  /** The store currency, which a member's spend is counted in. */
  currency: string,
): { title: string; description: string } {
  switch (kind) {
    case "cancel-period-end":
      return {
        title: "Membership set to end",
        description: `${after.email} keeps access until ${formatSaleDate(after.currentPeriodEnd)}, then the membership ends.`,
      };
    case "cancel-now":
      return {
        title: "Membership canceled",
        description: `${after.email} no longer has access to ${after.productTitle}.`,
      };
    case "refund": {
      const refunded = before.lifetimeSpendCents - after.lifetimeSpendCents;
      const what = refunded > 0 ? formatMoney(refunded, currency, DASHBOARD_LOCALE) : "The last payment";
      const access = after.hasAccess
        ? "They keep access for the period it paid for."
        : "Their access has ended.";
      return {
        title: "Last payment refunded",
        description: `${what} is on its way back to ${after.email}. ${access}`,
      };
    }
  }
}
