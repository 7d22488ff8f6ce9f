import { sql } from "kysely";
import { MEMBERSHIP_MESSAGES } from "../../../contracts/memberships";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import type { MembershipDeps } from "./membership-changes";

/**
 * Manage membership: Stripe's billing portal for the member, on the seller's own account (the
 * subscription lives there), where they update their card, cancel at the period's end or resume. Only
 * the holder of the member's library link (or account) may open it: another email's membership
 * answers 404, like a missing one. Back from the portal, the member lands on their library again.
 */
export async function openMembershipPortal(
  deps: MembershipDeps & { db: Database },
  membershipId: string,
  email: string,
  returnUrl: string,
): Promise<string> {
  const membership = await deps.db
    .selectFrom("memberships")
    .select(["stripe_customer_id", "stripe_account_id"])
    .where("id", "=", membershipId)
    .where(sql<string>`lower(customer_email)`, "=", email.toLowerCase())
    .executeTakeFirst();
  if (!membership) throw new AppError("not_a_member", 404, MEMBERSHIP_MESSAGES.membershipNotFound);
  const session = await deps.stripe.billingPortal.sessions.create(
    { customer: membership.stripe_customer_id, return_url: returnUrl },
    { stripeAccount: membership.stripe_account_id },
  );
  return session.url;
}
