import { type Kysely, type QueryExecutorProvider, sql } from "kysely";

/**
 * The tax report's roll-up (0028) counts in the store currency. Since 0031 an order can be paid in
 * another currency (a EUR price in a USD store), and the roll-up added its euro cents to dollar cents.
 * From now on each order counts as what it settled as (orders.settlement_cents, in the store currency):
 * its tax is the settled amount's share in the proportion the buyer paid it (exact decimal arithmetic,
 * rounded to the minor unit), its net the rest, so net + tax is exactly what settled. An order paid in
 * the store currency counts as before. The roll-up is rebuilt from the orders.
 */
export const SETTLED_TAX = sql`(case when amount_cents = 0 then 0
  else round(tax_cents::numeric * settlement_cents / amount_cents) end)::bigint`;

/** The roll-up's rows computed from orders in the store currency, as the report's step keeps them. */
export const TAX_REPORT_DAYS_FROM_ORDERS = sql`
  with facts as (
    select seller_id, created_at, refunded_at, status,
      coalesce(buyer_country, '') as country,
      case when buyer_country = 'US' then coalesce(buyer_state, '') else '' end as state,
      coalesce(tax_rate, '') as tax_rate,
      case
        when reverse_charge or coalesce(taxability_reason, '') = 'reverse_charge' then 'reverse_charge'
        when coalesce(taxability_reason, '') = 'not_collecting' then 'not_collected'
        when tax_cents = 0 then 'other_zero'
        else 'taxable'
      end as kind,
      tax_cents > 0 as taxed,
      settlement_cents::bigint - ${SETTLED_TAX} as net,
      ${SETTLED_TAX} as tax
    from orders
  ), parts as (
    select seller_id, (created_at at time zone 'UTC')::date as day, country, state, tax_rate, kind, taxed,
      'sale' as part, net, tax
    from facts
    union all
    select seller_id, (created_at at time zone 'UTC')::date, country, state, tax_rate, kind, taxed,
      'refunded_sale', net, tax
    from facts where status = 'refunded'
    union all
    select seller_id, (refunded_at at time zone 'UTC')::date, country, state, tax_rate, kind, taxed,
      'refund', net, tax
    from facts where refunded_at is not null
  )
  select seller_id, day, country, state, tax_rate, kind, taxed,
    count(*) filter (where part = 'sale') as sales_count,
    coalesce(sum(net) filter (where part = 'sale'), 0) as sales_net_cents,
    coalesce(sum(tax) filter (where part = 'sale'), 0) as sales_tax_cents,
    count(*) filter (where part = 'refunded_sale') as refunded_sales_count,
    coalesce(sum(net) filter (where part = 'refunded_sale'), 0) as refunded_sales_net_cents,
    coalesce(sum(tax) filter (where part = 'refunded_sale'), 0) as refunded_sales_tax_cents,
    count(*) filter (where part = 'refund') as refunds_count,
    coalesce(sum(net) filter (where part = 'refund'), 0) as refunds_net_cents,
    coalesce(sum(tax) filter (where part = 'refund'), 0) as refunds_tax_cents
  from parts
  group by seller_id, day, country, state, tax_rate, kind, taxed`;

/** Fills the roll-up from every order (this migration's rebuild; the benches after seeding). */
export async function backfillTaxReportDays(db: QueryExecutorProvider): Promise<void> {
  await sql`
    insert into tax_report_days (seller_id, day, country, state, tax_rate, kind, taxed,
      sales_count, sales_net_cents, sales_tax_cents,
      refunded_sales_count, refunded_sales_net_cents, refunded_sales_tax_cents,
      refunds_count, refunds_net_cents, refunds_tax_cents)
    ${TAX_REPORT_DAYS_FROM_ORDERS}
  `.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from tax_report_days`.execute(db);
  await backfillTaxReportDays(db);
}

export async function down(): Promise<void> {
  // The store-currency roll-up is a correct answer for the older code too (orders paid in the store currency are unchanged).
}
