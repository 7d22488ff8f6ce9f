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
import { storeCurrencyOf } from "../store-currency";

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

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * A quarter's tax report, grouped by country, US state and rate, in one statement over the roll-up
 * (tax_report_days, kept per sale and refund: tax-report-days.ts), never over orders: the quarter's rows
 * are a few per country and day, so the cost follows the quarter's days, not its orders. Sales are those
 * made in the quarter (refunded since or not), split by kind; refunds are those made in it, whenever the
 * sale was, shown negative. Quarters are whole UTC days, so the day buckets answer them exactly.
 */
export async function taxReportRows(
  db: Database,
  sellerId: string,
  quarter: string,
): Promise<{ rows: TaxReportRow[]; totals: TaxReportTotals }> {
  const { from, to } = quarterRange(quarter);
  const result = await sql<GroupRow>`
    select nullif(country, '') as country, nullif(state, '') as state, nullif(tax_rate, '') as tax_rate,
      sum(sales_count) as sales_count,
      sum(sales_net_cents) as net,
      sum(sales_tax_cents) as tax,
      coalesce(sum(sales_net_cents) filter (where kind = 'taxable'), 0) as taxable_net,
      sum(refunds_count) as refunds_count,
      -sum(refunds_net_cents) as refunds_net,
      -sum(refunds_tax_cents) as refunds_tax,
      coalesce(sum(sales_net_cents) filter (where kind = 'reverse_charge'), 0) as reverse_charge_net,
      coalesce(sum(sales_net_cents) filter (where kind = 'not_collected'), 0) as not_collected_net,
      coalesce(sum(sales_net_cents) filter (where kind = 'other_zero'), 0) as other_zero_net
    from tax_report_days
    where seller_id = ${sellerId} and day >= ${isoDay(from)}::date and day < ${isoDay(to)}::date
    group by 1, 2, 3
    having sum(sales_count) > 0 or sum(refunds_count) > 0
    order by 1 nulls last, 2 nulls first, 3 nulls first
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
 * it). The first day with a sale comes from the roll-up's key (seller_id, day, …); each quarter since is
 * one index probe, so the cost follows the number of quarters, not of orders.
 */
export async function reportQuarters(db: Database, sellerId: string, now: Date): Promise<string[]> {
  const current = quarterOf(now);
  const first = await db
    .selectFrom("tax_report_days")
    // As text: a date column would come back as a Date at local midnight.
    .select(sql<string>`day::text`.as("day"))
    .where("seller_id", "=", sellerId)
    .orderBy("day", "asc")
    .limit(1)
    .executeTakeFirst();
  if (!first || first.day > isoDay(now)) return [current];
  const candidates = quartersBetween(quarterOf(new Date(`${first.day}T00:00:00Z`)), current);
  const probes = candidates.map((quarter) => {
    const { from, to } = quarterRange(quarter);
    return sql<{ quarter: string }>`
      select ${quarter}::text as quarter where exists (
        select 1 from tax_report_days
        where seller_id = ${sellerId} and day >= ${isoDay(from)}::date and day < ${isoDay(to)}::date
      )`;
  });
  const result = await sql<{ quarter: string }>`${sql.join(probes, sql` union all `)}`.execute(db);
  const found = new Set(result.rows.map((row) => row.quarter));
  found.add(current);
  return [...found].sort().reverse();
}

/** GET /api/tax/report: the quarter's rows and totals, and the quarters the picker offers. */
export async function taxReport(
  db: Database,
  sellerId: string,
  quarter: string | undefined,
  now: Date,
): Promise<TaxReport> {
  const chosen = quarter ?? quarterOf(now);
  const { from, to } = quarterRange(chosen);
  const [{ rows, totals }, quarters, currency] = await Promise.all([
    taxReportRows(db, sellerId, chosen),
    reportQuarters(db, sellerId, now),
    storeCurrencyOf(db, sellerId).then((store) => store.currency),
  ]);
  return {
    quarter: chosen,
    from: isoDay(from),
    to: isoDay(new Date(to.getTime() - 24 * 60 * 60 * 1000)),
    // The roll-up counts what each order settled as: the store currency.
    currency,
    quarters: quarters.includes(chosen) ? quarters : [...quarters, chosen].sort().reverse(),
    rows,
    totals,
  };
}
