import { MEMBER_ACTION_MESSAGES, type Member } from "../../../contracts/memberships";
import { commitChange } from "../../adapters/events/commit-change";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Database } from "../../db/database";
import { AppError, notFound } from "../../http/errors";
import { refundOrder } from "../refunds";
import { readSubscription } from "./events/membership-events";
import { memberRows, toMember } from "./members";
import { applySubscription, type MembershipDeps } from "./membership-changes";

export type MemberActionDeps = MembershipDeps & { db: Database; events: EventBus; now: () => Date };

/** One of the seller's own memberships (another seller's answers 404, like a missing one). */
async function ownMembership(deps: MemberActionDeps, sellerId: string, membershipId: string) {
  const membership = await deps.db
    .selectFrom("memberships")
    .selectAll()
    .where("id", "=", membershipId)
    .where("seller_id", "=", sellerId)
    .executeTakeFirst();
  if (!membership) throw notFound(MEMBER_ACTION_MESSAGES.notFound);
  return membership;
}

/** The membership read back from Stripe and applied now, so the page shows the change at once. */
async function refreshed(deps: MemberActionDeps, sellerId: string, membershipId: string): Promise<Member> {
  const membership = await ownMembership(deps, sellerId, membershipId);
  const read = await readSubscription(deps, membership.stripe_account_id, membership.stripe_subscription_id);
  await commitChange(deps, (trx, announce) => applySubscription(deps, trx, read, deps.now(), announce));
  const row = await memberRows(deps.db, sellerId, { status: "all" })
    .where("memberships.id", "=", membershipId)
    .executeTakeFirstOrThrow();
  return toMember(row, deps.now());
}

/**
 * The seller cancels a member's subscription on Stripe, now (access ends at once) or at the period's
 * end (access until then); Stripe's events then tell the member, as a cancellation of their own would.
 */
export async function cancelMembership(
  deps: MemberActionDeps,
  sellerId: string,
  membershipId: string,
  when: "now" | "period_end",
): Promise<Member> {
  const membership = await ownMembership(deps, sellerId, membershipId);
  if (!["trialing", "active", "past_due", "unpaid", "paused"].includes(membership.status)) {
    throw new AppError("membership_ended", 409, MEMBER_ACTION_MESSAGES.alreadyEnded);
  }
  const options = { stripeAccount: membership.stripe_account_id };
  if (when === "now") {
    await deps.stripe.subscriptions.cancel(membership.stripe_subscription_id, {}, options);
  } else {
    await deps.stripe.subscriptions.update(
      membership.stripe_subscription_id,
      { cancel_at_period_end: true },
      options,
    );
  }
  return refreshed(deps, sellerId, membershipId);
}

/**
 * The seller refunds the membership's latest payment in full (the refunds room's refund of its order).
 * The period it paid for keeps its access unless `endAccess`: then access stops now, until a new
 * payment (product rules, "Memberships").
 */
export async function refundLastPayment(
  deps: MemberActionDeps,
  sellerId: string,
  membershipId: string,
  endAccess: boolean,
): Promise<Member> {
  await ownMembership(deps, sellerId, membershipId);
  const last = await deps.db
    .selectFrom("orders")
    .select("id")
    .where("membership_id", "=", membershipId)
    .where("seller_id", "=", sellerId)
    .where("status", "=", "completed")
    .where("amount_cents", ">", 0)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!last) throw new AppError("not_refundable", 409, MEMBER_ACTION_MESSAGES.nothingToRefund);
  await refundOrder(deps, sellerId, last.id, deps.now());
  if (endAccess) {
    await commitChange(deps, async (trx, announce) => {
      await trx
        .updateTable("memberships")
        .set({ access_revoked_at: deps.now() })
        .where("id", "=", membershipId)
        .where("seller_id", "=", sellerId)
        .execute();
      announce(sellerId, { type: "sales.changed" });
    });
  }
  const row = await memberRows(deps.db, sellerId, { status: "all" })
    .where("memberships.id", "=", membershipId)
    .executeTakeFirstOrThrow();
  return toMember(row, deps.now());
}
