import {
  GRACE_PERIOD_DAYS,
  PAGES_PUBLIC_AFTER_CANCEL_DAYS,
  type PlanStanding,
} from "../../../contracts/seller";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface StoredSubscription {
  status: string;
  past_due_since: Date | null;
  canceled_at: Date | null;
}

export interface PlanAccess {
  standing: PlanStanding;
  /** The dashboard and product creation work. */
  canUseDashboard: boolean;
  /** Buyers can purchase this seller's products. */
  canSell: boolean;
  /** This seller's store and product pages are public. */
  pagesPublic: boolean;
  graceEndsAt: Date | null;
}

/** The business rules of the $10 plan (product rules, What the product does and States and transitions) in one place. */
export function planAccess(subscription: StoredSubscription | undefined, now: Date): PlanAccess {
  if (!subscription) {
    // Never subscribed: a free account has no public store (it would be free hosting of a page).
    return {
      standing: "none",
      canUseDashboard: false,
      canSell: false,
      pagesPublic: false,
      graceEndsAt: null,
    };
  }
  const { status } = subscription;
  if (status === "active" || status === "trialing") {
    return { standing: "active", canUseDashboard: true, canSell: true, pagesPublic: true, graceEndsAt: null };
  }
  if (status === "past_due") {
    const since = subscription.past_due_since ?? now;
    const graceEndsAt = new Date(since.getTime() + GRACE_PERIOD_DAYS * DAY_MS);
    const inGrace = now < graceEndsAt;
    return {
      standing: inGrace ? "grace" : "lapsed",
      canUseDashboard: inGrace,
      canSell: inGrace,
      pagesPublic: true,
      graceEndsAt,
    };
  }
  if (status === "canceled" || status === "incomplete_expired") {
    const canceledAt = subscription.canceled_at ?? now;
    const pagesPublic = now.getTime() < canceledAt.getTime() + PAGES_PUBLIC_AFTER_CANCEL_DAYS * DAY_MS;
    return { standing: "canceled", canUseDashboard: false, canSell: false, pagesPublic, graceEndsAt: null };
  }
  // unpaid, incomplete, paused: the plan is not paid for.
  return { standing: "lapsed", canUseDashboard: false, canSell: false, pagesPublic: true, graceEndsAt: null };
}
