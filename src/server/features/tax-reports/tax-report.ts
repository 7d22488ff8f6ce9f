import { sql } from "kysely";
import {
  countryName,
  quarterOf,
  quarterRange,
  quartersBetween,
  type TaxReport,
  type TaxReportRow,
  type TaxReportTotals,
} from "../../../contracts/tax-reports";
import type { Database } from "../../db/database";

interface GroupRow {
  country: string | null;
  state: string | null;
  tax_rate: string | null;
  sales_count: number | string;
  net: number | string;
  tax: number | string;
  taxable_net: number | string;
  refunds_count: number | string;
  refunds_net: number | string;
  refunds_tax: number | string;
  reverse_charge_net: number | string;
  not_collected_net: number | string;
  other_zero_net: number | string;
}

/**
 * One order as the report sees it: where it was sold (the US state only for the US), at which rate,
 * its net and tax, and which column its net goes to. Reverse charge first (Stripe marks the order, or
 * says reverse_charge), then not_collecting (the account isn't registered there), then any other sale
 * without tax (exempt, zero-rated, not subject to tax, before tax collection), else taxable.
 */
const ORDER_FACTS = sql`
  buyer_country as country,
  case when buyer_country = 'US' then buyer_state end as state,
  tax_rate,
  (amount_cents - tax_cents)::bigint as net,
  tax_cents::bigint as tax,
  case
    when reverse_charge or coalesce(taxability_reason, '') = 'reverse_charge' then 'reverse_charge'
    when coalesce(taxability_reason, '') = 'not_collecting' then 'not_collected'
    when tax_cents = 0 then 'other_zero'
    else 'taxable'
  end as kind`;

/**
 * A quarter's tax report, grouped by country, US state and rate in one statement. Sales are orders made
 * in the quarter (through the (seller_id, created_at) index); refunds are orders refunded in it, by
 * refunded_at (through 0027's partial index), subtracted there whenever the sale was. Every read is
 * filtered by the seller.
 */
export async function taxReportRows(
  db: Database,
  sellerId: string,
  quarter: string,
): Promise<{ rows: TaxReportRow[]; totals: TaxReportTotals }> {
  const { from, to } = quarterRange(quarter);
  const result = await sql<GroupRow>`
    with facts as (
      select false as refund, ${ORDER_FACTS} from orders
      where seller_id = ${sellerId} and created_at >= ${from} and created_at < ${to}
      union all
      select true as refund, ${ORDER_FACTS} from orders
      where seller_id = ${sellerId} and refunded_at is not null
        and refunded_at >= ${from} and refunded_at < ${to}
    )
    select country, state, tax_rate,
      count(*) filter (where not refund) as sales_count,
      coalesce(sum(net) filter (where not refund), 0) as net,
      coalesce(sum(tax) filter (where not refund), 0) as tax,
      coalesce(sum(net) filter (where not refund and kind = 'taxable'), 0) as taxable_net,
      count(*) filter (where refund) as refunds_count,
      coalesce(-sum(net) filter (where refund), 0) as refunds_net,
      coalesce(-sum(tax) filter (where refund), 0) as refunds_tax,
      coalesce(sum(net) filter (where not refund and kind = 'reverse_charge'), 0) as reverse_charge_net,
      coalesce(sum(net) filter (where not refund and kind = 'not_collected'), 0) as not_collected_net,
      coalesce(sum(net) filter (where not refund and kind = 'other_zero'), 0) as other_zero_net
    from facts
    group by country, state, tax_rate
    order by country nulls last, state nulls first, tax_rate nulls first
  `.execute(db);

  const rows = result.rows.map(
    (row): TaxReportRow => ({
      country: row.country,
      countryName: countryName(row.country),
      state: row.state,
      taxRate: row.tax_rate,
      salesCount: Number(row.sales_count),
      netCents: Number(row.net),
      taxCents: Number(row.tax),
      taxableNetCents: Number(row.taxable_net),
      refundsCount: Number(row.refunds_count),
      refundsNetCents: Number(row.refunds_net),
      refundsTaxCents: Number(row.refunds_tax),
      reverseChargeNetCents: Number(row.reverse_charge_net),
      notCollectedNetCents: Number(row.not_collected_net),
      otherZeroTaxNetCents: Number(row.other_zero_net),
    }),
  );
  return { rows, totals: totalsOf(rows) };
}

const TOTAL_KEYS = [
  "salesCount",
  "netCents",
  "taxCents",
  "taxableNetCents",
  "refundsCount",
  "refundsNetCents",
  "refundsTaxCents",
  "reverseChargeNetCents",
  "notCollectedNetCents",
  "otherZeroTaxNetCents",
] as const satisfies ReadonlyArray<keyof TaxReportTotals>;

/** The totals row: integer sums of the rows (a few per country, never per order). */
export function totalsOf(rows: readonly TaxReportRow[]): TaxReportTotals {
  const totals = Object.fromEntries(TOTAL_KEYS.map((key) => [key, 0])) as TaxReportTotals;
  for (const row of rows) for (const key of TOTAL_KEYS) totals[key] += row[key];
  return totals;
}

/**
 * The quarters with a sale or a refund, newest first, and the current one (the picker always offers
 * it). The first sale comes from the (seller_id, created_at) index; each quarter since is one
 * index probe, so the cost follows the number of quarters, not of orders.
 */
export async function reportQuarters(db: Database, sellerId: string, now: Date): Promise<string[]> {
  const current = quarterOf(now);
  const first = await db
    .selectFrom("orders")
    .select("created_at")
    .where("seller_id", "=", sellerId)
    .orderBy("created_at", "asc")
    .limit(1)
    .executeTakeFirst();
  if (!first || first.created_at > now) return [current];
  const candidates = quartersBetween(quarterOf(first.created_at), current);
  const probes = candidates.map((quarter) => {
    const { from, to } = quarterRange(quarter);
    return sql<{ quarter: string }>`
      select ${quarter}::text as quarter where exists (
        select 1 from orders where seller_id = ${sellerId} and created_at >= ${from} and created_at < ${to}
      ) or exists (
        select 1 from orders where seller_id = ${sellerId} and refunded_at is not null
          and refunded_at >= ${from} and refunded_at < ${to}
      )`;
  });
  const result = await sql<{ quarter: string }>`${sql.join(probes, sql` union all `)}`.execute(db);
  const found = new Set(result.rows.map((row) => row.quarter));
  found.add(current);
  return [...found].sort().reverse();
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** GET /api/tax/report: the quarter's rows and totals, and the quarters the picker offers. */
export async function taxReport(
  db: Database,
  sellerId: string,
  quarter: string | undefined,
  now: Date,
): Promise<TaxReport> {
  const chosen = quarter ?? quarterOf(now);
  const { from, to } = quarterRange(chosen);
  const [{ rows, totals }, quarters] = await Promise.all([
    taxReportRows(db, sellerId, chosen),
    reportQuarters(db, sellerId, now),
  ]);
  return {
    quarter: chosen,
    from: isoDay(from),
    to: isoDay(new Date(to.getTime() - 24 * 60 * 60 * 1000)),
    currency: "usd",
    quarters: quarters.includes(chosen) ? quarters : [...quarters, chosen].sort().reverse(),
    rows,
    totals,
  };
}
