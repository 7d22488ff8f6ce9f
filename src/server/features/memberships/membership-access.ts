import { MEMBERSHIP_LIMITS } from "../../../contracts/memberships";

const DAY_MS = 24 * 60 * 60 * 1000;

/** What access is decided from: the subscription's state as Stripe last reported it, and the seller's word. */
export interface MembershipState {
  status: string;
  current_period_end: Date;
  past_due_since: Date | null;
  access_revoked_at: Date | null;
}

/**
 * Whether a member may read the tier's posts and download its files now: the one rule for access
 * (product rules, "Memberships"). Paid or trialing: until the period ends, plus the grace days, so a
 * renewal Stripe has charged but not yet told us about never locks a member out. Past due: for the grace
 * days after the renewal failed, then not until it is paid. Anything else (canceled, unpaid, incomplete),
 * or access the seller ended (a refund that ends the period, a dispute): none.
 */
export function hasMembershipAccess(membership: MembershipState, now: Date): boolean {
  if (membership.access_revoked_at) return false;
  const grace = MEMBERSHIP_LIMITS.graceDays * DAY_MS;
  if (membership.status === "active" || membership.status === "trialing") {
    return now.getTime() < membership.current_period_end.getTime() + grace;
  }
  if (membership.status === "past_due") {
    const since = membership.past_due_since ?? membership.current_period_end;
    return now.getTime() < since.getTime() + grace;
  }
  return false;
}
