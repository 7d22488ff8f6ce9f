import { sql } from "kysely";
import type { CurrencyAmount, PlatformFigures } from "../../../contracts/enforcement";
import { PLAN_PRICE_CENTS } from "../../../contracts/seller";
import type { Database } from "../../db/database";

const MONTHS = 12;

/** YYYY-MM of a UTC date. */
const monthOf = (date: Date) => date.toISOString().slice(0, 7);

/** The last `count` months, oldest first, ending with `now`'s (UTC). */
export function lastMonths(now: Date, count = MONTHS): string[] {
  const months: string[] = [];
  for (let back = count - 1; back >= 0; back--) {
    months.push(monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1))));
  }
  return months;
}

/**
 * The console's Overview, from our own database (docs/operator.md, "Platform figures"):
 * - paying sellers: subscriptions Stripe says are `active` (trials and unpaid ones are not paying);
 *   MRR is that count times the plan's price, in US cents (the plan has one price);
 * - new sellers per month: accounts created that month that have subscribed (a subscription row);
 *   churned: subscriptions that ended (canceled) that month;
 * - GMV per month: completed orders' settlement (what the store received, in its store currency), one sum
 *   per currency: amounts of different currencies are never added;
 * - storage: every stored upload's size.
 */
export async function platformFigures(db: Database, now: Date): Promise<PlatformFigures> {
  const months = lastMonths(now);
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (MONTHS - 1), 1));
  const [paying, storage, newRows, churnRows, gmvRows] = await Promise.all([
    db
      .selectFrom("subscriptions")
      .select(sql<string>`count(*)`.as("count"))
      .where("status", "=", "active")
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("uploads")
      .select(sql<string>`coalesce(sum(coalesce(size_bytes, declared_size_bytes)), 0)::bigint`.as("bytes"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("profiles")
      .innerJoin("subscriptions", "subscriptions.user_id", "profiles.id")
      .select([
        sql<string>`to_char(date_trunc('month', profiles.created_at at time zone 'UTC'), 'YYYY-MM')`.as(
          "month",
        ),
        sql<string>`count(*)`.as("count"),
      ])
      .where("profiles.created_at", ">=", since)
      .groupBy(sql`1`)
      .execute(),
    db
      .selectFrom("subscriptions")
      .select([
        sql<string>`to_char(date_trunc('month', canceled_at at time zone 'UTC'), 'YYYY-MM')`.as("month"),
        sql<string>`count(*)`.as("count"),
      ])
      .where("status", "in", ["canceled", "incomplete_expired"])
      .where("canceled_at", ">=", since)
      .groupBy(sql`1`)
      .execute(),
    db
      .selectFrom("orders")
      .select([
        sql<string>`to_char(date_trunc('month', created_at at time zone 'UTC'), 'YYYY-MM')`.as("month"),
        "settlement_currency",
        sql<string>`sum(settlement_cents)::bigint`.as("total"),
      ])
      .where("status", "=", "completed")
      .where("created_at", ">=", since)
      .groupBy([sql`1`, "settlement_currency"])
      .execute(),
  ]);
  const countsBy = (rows: Array<{ month: string; count: string }>) =>
    new Map(rows.map((row) => [row.month, Number(row.count)]));
  const newBy = countsBy(newRows);
  const churnBy = countsBy(churnRows);
  const gmvBy = new Map<string, CurrencyAmount[]>();
  for (const row of gmvRows) {
    const list = gmvBy.get(row.month) ?? [];
    list.push({ currency: row.settlement_currency, amountCents: Number(row.total) });
    gmvBy.set(row.month, list);
  }
  const payingSellers = Number(paying.count);
  return {
    payingSellers,
    mrrCents: payingSellers * PLAN_PRICE_CENTS,
    storageBytes: Number(storage.bytes),
    months: months.map((month) => ({
      month,
      newSellers: newBy.get(month) ?? 0,
      churnedSellers: churnBy.get(month) ?? 0,
      gmv: (gmvBy.get(month) ?? []).sort((a, b) => a.currency.localeCompare(b.currency)),
    })),
  };
}
