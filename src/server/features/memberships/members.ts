import { type ExpressionBuilder, sql } from "kysely";
import {
  hasMembershipAccess,
  MEMBER_ACTION_MESSAGES,
  MEMBERSHIP_STATUS_LABELS,
  type Member,
  type MembersPage,
  type MembersQuery,
  membershipStatusOf,
} from "../../../contracts/memberships";
import type { Database } from "../../db/database";
import { emailSearchPattern } from "../../db/email-search";
import { planPerValues } from "../../db/plan-hints";
import type { DB } from "../../db/schema";
import { notFound } from "../../http/errors";
import { decodeCursor, encodeCursor } from "../../http/keyset-cursor";

type MembersFilter = Pick<MembersQuery, "q" | "status" | "productId">;

/** A status filter as members see it (membershipStatusOf), in SQL. */
function statusCondition(eb: ExpressionBuilder<DB, "memberships">, status: MembersQuery["status"]) {
  switch (status) {
    case "trialing":
    case "active":
      return eb.and([
        eb("memberships.status", "=", status),
        eb("memberships.cancel_at_period_end", "=", false),
      ]);
    case "canceling":
      return eb.and([
        eb("memberships.status", "in", ["trialing", "active"]),
        eb("memberships.cancel_at_period_end", "=", true),
      ]);
    case "past_due":
      return eb("memberships.status", "=", "past_due");
    case "ended":
      return eb("memberships.status", "not in", ["trialing", "active", "past_due"]);
    default:
      return eb.val(true);
  }
}

/**
 * The seller's members, newest first, as a keyset on (created_at, id) so page 500 costs what page 1
 * does; with each one's lifetime spend in their membership's currency (their periods' orders, refunds
 * taken back).
 */
export function memberRows(
  db: Database,
  sellerId: string,
  filter: MembersFilter,
  after?: { createdAt: Date; id: string },
) {
  let query = db
    .selectFrom("memberships")
    .selectAll("memberships")
    .select((eb) =>
      eb
        .selectFrom("orders")
        // In the membership's currency: what each period paid, or, where Adaptive Pricing charged the
        // member in their own currency, what it settled as (the store's, which is the subscription's).
        .select(
          sql<string>`coalesce(sum(case when orders.currency = memberships.currency then orders.amount_cents else orders.settlement_cents end), 0)`.as(
            "spent",
          ),
        )
        .whereRef("orders.membership_id", "=", "memberships.id")
        .where("orders.status", "=", "completed")
        .as("lifetime_spend_cents"),
    )
    .where("memberships.seller_id", "=", sellerId)
    .where((eb) => statusCondition(eb, filter.status));
  if (filter.productId) query = query.where("memberships.product_id", "=", filter.productId);
  const search = filter.q?.trim().toLowerCase();
  if (search) {
    query = query
      .where(sql<string>`lower(memberships.customer_email)`, "like", emailSearchPattern(search))
      .modifyEnd(planPerValues);
  }
  if (after) {
    query = query.where((eb) =>
      eb(eb.refTuple("memberships.created_at", "memberships.id"), "<", eb.tuple(after.createdAt, after.id)),
    );
  }
  return query.orderBy("memberships.created_at", "desc").orderBy("memberships.id", "desc");
}

export type MemberRow = Awaited<ReturnType<ReturnType<typeof memberRows>["execute"]>>[number];

export function toMember(row: MemberRow, now: Date): Member {
  const status = membershipStatusOf({ status: row.status, cancelAtPeriodEnd: row.cancel_at_period_end });
  return {
    id: row.id,
    email: row.customer_email,
    productId: row.product_id,
    productTitle: row.product_title,
    tierName: row.tier_name,
    interval: row.billing_interval,
    amountCents: row.amount_cents,
    currency: row.currency,
    status,
    statusLabel: MEMBERSHIP_STATUS_LABELS[status],
    startedAt: row.started_at.toISOString(),
    currentPeriodEnd: row.current_period_end.toISOString(),
    endedAt: row.ended_at?.toISOString() ?? null,
    lifetimeSpendCents: Number(row.lifetime_spend_cents ?? 0),
    hasAccess: hasMembershipAccess(row, now),
  };
}

export async function membersPage(
  db: Database,
  sellerId: string,
  query: MembersQuery,
  now: Date,
): Promise<MembersPage> {
  const after = query.before ? decodeCursor(query.before) : undefined;
  const rows = await memberRows(db, sellerId, query, after)
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    members: page.map((row) => toMember(row, now)),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.created_at, last.id) : null,
  };
}

/** One of the seller's members (another seller's answers 404, like a missing one). */
export async function getMember(
  db: Database,
  sellerId: string,
  membershipId: string,
  now: Date,
): Promise<Member> {
  const row = await memberRows(db, sellerId, { status: "all" })
    .where("memberships.id", "=", membershipId)
    .executeTakeFirst();
  if (!row) throw notFound(MEMBER_ACTION_MESSAGES.notFound);
  return toMember(row, now);
}
