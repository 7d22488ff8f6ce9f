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
  first: Date | string | null;
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

/**
 * A sale to a consumer: kept (not refunded) and not reverse-charged (a business buyer with a valid VAT
 * number accounts for the VAT itself). Net of tax, as thresholds count supplies.
 */
const CONSUMER_SALE = sql`status = 'completed' and not reverse_charge and coalesce(taxability_reason, '') <> 'reverse_charge'`;

const summaryOf = (where: ReturnType<typeof sql>) => sql`
  select json_build_object('count', count(*), 'net', coalesce(sum(amount_cents - tax_cents), 0), 'first', min(created_at))
  from orders where ${where}`;

const isoOf = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/**
 * The tax guide's facts, from the seller's country and their sales by buyer country, in one statement
 * (every part filtered by the seller; the year's parts through the (seller_id, created_at) index, the
 * since-the-first-sale parts through 0027's (seller_id, buyer_country, created_at) index):
 * - an EU-established seller: this calendar year's cross-border EU consumer sales against EUR 10,000;
 * - a seller outside the EU: EU consumer sales since the first one; outside the UK: UK consumer sales;
 * - every seller: US states at or past half of $100,000 or 200 transactions this calendar year;
 * - where tax was collected on an order in the last 12 months.
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
  const yearStart = new Date(Date.UTC(year, 0, 1));
  const nextYear = new Date(Date.UTC(year + 1, 0, 1));
  const euList = sql.join(EU_COUNTRIES.map((country) => sql`${country}`));
  const seller = sql`seller_id = ${sellerId}`;
  const thisYear = sql`created_at >= ${yearStart} and created_at < ${nextYear}`;
  const euSeller = isEuCountry(sellerCountry);
  const approachingCents = (US_NEXUS_SALES_CENTS * US_NEXUS_APPROACHING_PERCENT) / 100;
  const approachingCount = (US_NEXUS_TRANSACTIONS * US_NEXUS_APPROACHING_PERCENT) / 100;

  const result = await sql<GuideRow>`
    select
      (${summaryOf(sql`${seller} and ${thisYear} and ${CONSUMER_SALE}
        and buyer_country in (${euList}) and buyer_country <> ${sellerCountry ?? ""}`)}) as eu_cross_border,
      (${summaryOf(sql`${seller} and ${CONSUMER_SALE} and buyer_country in (${euList})`)}) as eu_consumer,
      (${summaryOf(sql`${seller} and ${CONSUMER_SALE} and buyer_country = 'GB'`)}) as uk_consumer,
      (select coalesce(json_agg(json_build_object('state', state, 'count', count, 'net', net)
                                order by net desc, count desc, state), '[]')
       from (select buyer_state as state, count(*) as count, sum(amount_cents - tax_cents) as net
             from orders
             where ${seller} and ${thisYear} and status = 'completed'
               and buyer_country = 'US' and buyer_state is not null
             group by buyer_state
             having sum(amount_cents - tax_cents) >= ${approachingCents} or count(*) >= ${approachingCount}) as states
      ) as us_states,
      (select count(distinct buyer_state) from orders
       where ${seller} and ${thisYear} and status = 'completed' and buyer_country = 'US' and buyer_state is not null
      ) as us_states_with_sales,
      (select coalesce(json_agg(json_build_object('country', country, 'state', state, 'count', count, 'tax', tax)
                                order by tax desc, country, state), '[]')
       from (select buyer_country as country, case when buyer_country = 'US' then buyer_state end as state,
                    count(*) as count, sum(tax_cents) as tax
             from orders
             where ${seller} and created_at >= ${new Date(now.getTime() - YEAR_MS)} and created_at <= ${now}
               and status = 'completed' and tax_cents > 0 and buyer_country is not null
             group by 1, 2) as collected
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
