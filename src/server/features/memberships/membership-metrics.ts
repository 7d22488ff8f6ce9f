import { sql } from "kysely";
import type { MembershipMetrics } from "../../../contracts/analytics";
import { monthlyRecurringCents } from "../../../contracts/money";
import type { Database } from "../../db/database";

/**
 * What the analytics page shows of memberships for a period (`from` null: all time) up to `to`:
 * MRR and members now (paying: active or past due, a cancellation at period end included, since they
 * paid for the month; trials apart), members who started and who ended within the period, and the
 * revenue of renewals (a paid period that starts where an earlier paid one ended: not a switch's
 * prorated charge, nor the first payment after a trial), added up as they settled in the store currency
 * (docs/money.md: a member paying in their own currency through Adaptive Pricing, or a tier's price in
 * another currency). One statement.
 */
export async function membershipMetrics(
  db: Database,
  sellerId: string,
  range: { from: Date | null; to: Date; productId: string | null },
): Promise<MembershipMetrics> {
  const product = range.productId ? sql`and product_id = ${range.productId}` : sql``;
  const since = (column: string) => (range.from ? sql`${sql.ref(column)} >= ${range.from}` : sql`true`);
  const result = await sql<{
    monthly: string | null;
    yearly: string | null;
    paying: number;
    trialing: number;
    started: number;
    ended: number;
    renewals: string | null;
  }>`
    with own as (
      select * from memberships where seller_id = ${sellerId} ${product}
    )
    select
      (select sum(amount_cents) from own where status in ('active', 'past_due') and billing_interval = 'month') as monthly,
      (select sum(amount_cents) from own where status in ('active', 'past_due') and billing_interval = 'year') as yearly,
      (select count(*)::int from own where status in ('active', 'past_due')) as paying,
      (select count(*)::int from own where status = 'trialing') as trialing,
      (select count(*)::int from own where ${since("started_at")} and started_at < ${range.to}) as started,
      (select count(*)::int from own where ended_at is not null and ${since("ended_at")} and ended_at < ${range.to}) as ended,
      (select sum(o.settlement_cents) from orders o join own on own.id = o.membership_id
        where o.status = 'completed' and o.amount_cents > 0 and ${since("o.created_at")} and o.created_at < ${range.to}
          and exists (select 1 from orders earlier where earlier.membership_id = o.membership_id
                        and earlier.amount_cents > 0 and earlier.period_end <= o.period_start)) as renewals
  `.execute(db);
  const row = result.rows[0];
  return {
    mrrCents: monthlyRecurringCents(Number(row?.monthly ?? 0), Number(row?.yearly ?? 0)),
    payingMembers: row?.paying ?? 0,
    trialingMembers: row?.trialing ?? 0,
    newMembers: row?.started ?? 0,
    churnedMembers: row?.ended ?? 0,
    renewalRevenueCents: Number(row?.renewals ?? 0),
  };
}
