import { sql } from "kysely";
import {
  hasMembershipAccess,
  MEMBERSHIP_STATUS_LABELS,
  membershipStatusOf,
} from "../../../contracts/memberships";
import type { LibraryMembership } from "../../../contracts/orders";
import { STORE_FALLBACK_NAME } from "../../../contracts/products";
import type { Database } from "../../db/database";
import { purchaseQuery, toBuyerPurchase } from "./buyer-purchase";

/**
 * The memberships of an email, newest first, each with its latest period (the order of its latest paid
 * invoice: that period's files and downloads). Two reads whatever the number of memberships.
 */
export async function libraryMemberships(
  db: Database,
  linkKey: string,
  email: string,
  now: Date,
): Promise<LibraryMembership[]> {
  const memberships = await db
    .selectFrom("memberships")
    .leftJoin("profiles", "profiles.id", "memberships.seller_id")
    .selectAll("memberships")
    .select("profiles.store_name")
    .where(sql<string>`lower(memberships.customer_email)`, "=", email.toLowerCase())
    .orderBy("memberships.created_at", "desc")
    .limit(200)
    .execute();
  if (memberships.length === 0) return [];
  const periods = await purchaseQuery(db)
    .where(
      "orders.membership_id",
      "in",
      memberships.map((membership) => membership.id),
    )
    .orderBy("orders.created_at", "desc")
    .execute();
  return memberships.map((membership) => {
    const latest = periods.find((period) => period.membership_id === membership.id);
    const status = membershipStatusOf({
      status: membership.status,
      cancelAtPeriodEnd: membership.cancel_at_period_end,
    });
    return {
      id: membership.id,
      productId: membership.product_id,
      productTitle: membership.product_title,
      sellerName: membership.store_name ?? STORE_FALLBACK_NAME,
      tierName: membership.tier_name,
      interval: membership.billing_interval,
      amountCents: membership.amount_cents,
      status,
      statusLabel: MEMBERSHIP_STATUS_LABELS[status],
      currentPeriodEnd: (membership.ended_at ?? membership.current_period_end).toISOString(),
      trialEnd: membership.trial_end?.toISOString() ?? null,
      hasAccess: hasMembershipAccess(membership, now),
      period: latest ? toBuyerPurchase(latest, linkKey, now) : null,
    };
  });
}
