import { sql } from "kysely";
import { EU_COUNTRIES, isEuCountry } from "../../../contracts/tax";
import {
  EU_THRESHOLD_EUR_CENTS,
  percentUsed,
  type TaxGuide,
  US_NEXUS_APPROACHING_PERCENT,
  US_NEXUS_SALES_CENTS,
  US_NEXUS_TRANSACTIONS,
  USD_PER_EUR,
  usdCentsToEurCents,
} from "../../../contracts/tax-reports";
import type { Database } from "../../db/database";

type Count = number | string;
interface Summary {
  count: Count;
  net: Count;
  /** The first UTC day with such a sale, YYYY-MM-DD. */
  first: string | null;
}
interface GuideRow {
  eu_cross_border: Summary;
  eu_consumer: Summary;
  uk_consumer: Summary;
  us_states: Array<{ state: string; count: Count; net: Count }>;
  us_states_with_sales: Count;
  collecting_in: Array<{ country: string; state: string | null; count: Count; tax: Count }>;
}

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The roll-up's buckets as kept sales: a day's sales less those refunded since (status `completed` on
 * the orders), count, net of tax and tax. The guide never reads orders.
 */
const KEPT = sql`(
  select seller_id, day, country, state, kind, taxed,
    sales_count - refunded_sales_count as count,
    sales_net_cents - refunded_sales_net_cents as net,
    sales_tax_cents - refunded_sales_tax_cents as tax
  from tax_report_days
)`;

/** A sale to a consumer: not reverse-charged (a business buyer with a valid VAT number accounts for the VAT). */
const CONSUMER_SALE = sql`kind <> 'reverse_charge'`;

/** How many kept sales, their net, and the first day with one (as text: a date would come back local). */
const summaryOf = (where: ReturnType<typeof sql>) => sql`
  select json_build_object('count', coalesce(sum(count), 0), 'net', coalesce(sum(net), 0),
                           'first', (min(day) filter (where count > 0))::text)
  from ${KEPT} as kept where ${where}`;

/** The first sale's day as an instant: midnight UTC of that day (the page shows the UTC day). */
const isoOf = (day: string | null) => (day === null ? null : `${day}T00:00:00.000Z`);

/**
 * The tax guide's facts, from the seller's country and their kept sales by buyer country, in one
 * statement over the roll-up (tax_report_days: rows per day and bucket, never per order; every part
 * filtered by the seller):
 * - an EU-established seller: this calendar year's cross-border EU consumer sales against EUR 10,000;
 * - a seller outside the EU: EU consumer sales since the first one; outside the UK: UK consumer sales;
 * - every seller: US states at or past half of $100,000 or 200 transactions this calendar year;
 * - where tax was collected on an order in the last 12 months: the 366 UTC days from the one 365 days
 *   ago to today (day buckets: a sale late on the first day counts, as may one early that day).
 * The rules themselves are the page's words (contracts/tax-reports.ts, docs/tax-and-invoices.md).
 */
export async function taxGuide(
  db: Database,
  sellerId: string,
  chosenCountry: string | undefined,
  now: Date,
): Promise<TaxGuide> {
  const settings = await db
    .selectFrom("store_tax_settings")
    .select("head_office_country")
    .where("seller_id", "=", sellerId)
    .executeTakeFirst();
  const stripeCountry = settings?.head_office_country ?? null;
  const sellerCountry = chosenCountry ?? stripeCountry;
  const source = chosenCountry ? "chosen" : stripeCountry ? "stripe" : "none";

  const year = now.getUTCFullYear();
  const yearStart = `${year}-01-01`;
  const nextYear = `${year + 1}-01-01`;
  const euList = sql.join(EU_COUNTRIES.map((country) => sql`${country}`));
  const seller = sql`seller_id = ${sellerId}`;
  const thisYear = sql`day >= ${yearStart}::date and day < ${nextYear}::date`;
  const lastYear = sql`day >= ${isoDay(new Date(now.getTime() - YEAR_MS))}::date and day <= ${isoDay(now)}::date`;
  const euSeller = isEuCountry(sellerCountry);
  const approachingCents = (US_NEXUS_SALES_CENTS * US_NEXUS_APPROACHING_PERCENT) / 100;
  const approachingCount = (US_NEXUS_TRANSACTIONS * US_NEXUS_APPROACHING_PERCENT) / 100;

  const result = await sql<GuideRow>`
    select
      (${summaryOf(sql`${seller} and ${thisYear} and ${CONSUMER_SALE}
        and country in (${euList}) and country <> ${sellerCountry ?? ""}`)}) as eu_cross_border,
      (${summaryOf(sql`${seller} and ${CONSUMER_SALE} and country in (${euList})`)}) as eu_consumer,
      (${summaryOf(sql`${seller} and ${CONSUMER_SALE} and country = 'GB'`)}) as uk_consumer,
      (select coalesce(json_agg(json_build_object('state', state, 'count', count, 'net', net)
                                order by net desc, count desc, state), '[]')
       from (select state, sum(count) as count, sum(net) as net
             from ${KEPT} as kept
             where ${seller} and ${thisYear} and country = 'US' and state <> ''
             group by state
             having sum(net) >= ${approachingCents} or sum(count) >= ${approachingCount}) as states
      ) as us_states,
      (select count(distinct state) from ${KEPT} as kept
       where ${seller} and ${thisYear} and country = 'US' and state <> '' and count > 0
      ) as us_states_with_sales,
      (select coalesce(json_agg(json_build_object('country', country, 'state', state, 'count', count, 'tax', tax)
                                order by tax desc, country, state), '[]')
       from (select country, nullif(state, '') as state, sum(count) as count, sum(tax) as tax
             from ${KEPT} as kept
             where ${seller} and ${lastYear} and taxed and country <> ''
             group by 1, 2
             having sum(count) > 0) as collected
      ) as collecting_in
  `.execute(db);
  const row = result.rows[0];
  if (!row) throw new Error("the tax guide statement answered no row");

  const summary = (part: Summary) => ({
    count: Number(part.count),
    netCents: Number(part.net),
    firstSaleAt: isoOf(part.first),
  });
  const crossBorder = summary(row.eu_cross_border);
  const crossBorderEur = usdCentsToEurCents(crossBorder.netCents);
  return {
    sellerCountry,
    sellerCountrySource: source,
    stripeCountry,
    year,
    asOf: now.toISOString(),
    euSeller: euSeller
      ? {
          count: crossBorder.count,
          netCents: crossBorder.netCents,
          netEurCents: crossBorderEur,
          thresholdEurCents: EU_THRESHOLD_EUR_CENTS,
          percentUsed: percentUsed(crossBorderEur, EU_THRESHOLD_EUR_CENTS),
        }
      : null,
    // A seller of unknown country sees both EU answers' facts only once they say where they are.
    euConsumerSales: sellerCountry !== null && !euSeller ? summary(row.eu_consumer) : null,
    ukConsumerSales: sellerCountry !== null && sellerCountry !== "GB" ? summary(row.uk_consumer) : null,
    usStates: row.us_states.map((state) => {
      const count = Number(state.count);
      const netCents = Number(state.net);
      const salesPercent = percentUsed(netCents, US_NEXUS_SALES_CENTS);
      const transactionsPercent = percentUsed(count, US_NEXUS_TRANSACTIONS);
      return {
        state: state.state,
        count,
        netCents,
        salesPercent,
        transactionsPercent,
        status:
          Math.max(salesPercent, transactionsPercent) >= 100
            ? ("reached" as const)
            : ("approaching" as const),
      };
    }),
    usStatesWithSales: Number(row.us_states_with_sales),
    collectingIn: row.collecting_in.map((place) => ({
      country: place.country,
      state: place.state,
      count: Number(place.count),
      taxCents: Number(place.tax),
    })),
    rate: USD_PER_EUR,
  };
}
