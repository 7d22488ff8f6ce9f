import { type Kysely, type QueryExecutorProvider, sql } from "kysely";

/**
 * The roll-up's rows computed from orders, as the tax report's step keeps them (features/tax-reports
 * tax-report-days.ts): each order counts as a sale on the UTC day it was made; once refunded (status
 * `refunded`) also as a refunded sale on that same day; and, when it has a `refunded_at`, as a refund on
 * the UTC day of its refund. Keys use '' for none (no buyer country, no US state, no rate). Exported so
 * the tests can compare the kept roll-up with it and the benches can fill it after seeding orders in bulk.
 */
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
      (amount_cents - tax_cents)::bigint as net,
      tax_cents::bigint as tax
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

/** Fills the roll-up from every order (the migration's backfill; the benches after seeding). */
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
  await sql`
    -- The tax report and guide read only this roll-up (docs/tax-and-invoices.md), kept in the transaction
    -- of each sale and refund (OrderChanges). One row per seller, UTC day and what the report groups by:
    -- the buyer's country, the US state (the US only), Stripe's rate, the kind of sale, and whether tax
    -- was charged ('' for none in the text keys: a primary key has no nulls).
    create table tax_report_days (
      seller_id text not null references "user" ("id") on delete cascade,
      day date not null,
      country text not null,
      state text not null,
      tax_rate text not null,
      -- reverse_charge (a business buyer), not_collected (Stripe's not_collecting), other_zero (any other
      -- sale without tax), taxable (the rest): the report's columns; consumer sales are all but the first.
      kind text not null check (kind in ('taxable', 'reverse_charge', 'not_collected', 'other_zero')),
      -- tax_cents > 0 on the order (where tax was collected).
      taxed boolean not null,
      -- Sales made on this day (refunded since or not); net is amount - tax.
      sales_count integer not null default 0,
      sales_net_cents bigint not null default 0,
      sales_tax_cents bigint not null default 0,
      -- Of those sales, the ones refunded since (on any day): sales - refunded sales = the kept sales.
      refunded_sales_count integer not null default 0,
      refunded_sales_net_cents bigint not null default 0,
      refunded_sales_tax_cents bigint not null default 0,
      -- Refunds made on this day, whenever their sale was.
      refunds_count integer not null default 0,
      refunds_net_cents bigint not null default 0,
      refunds_tax_cents bigint not null default 0,
      primary key (seller_id, day, country, state, tax_rate, kind, taxed)
    );
  `.execute(db);
  // Sales and refunds made before this migration.
  await backfillTaxReportDays(db);
  await sql`
    -- 0027's indexes served the report's and guide's reads of orders, which now read the roll-up: nothing
    -- else filters orders by refund date or buyer country, so no sale keeps them up to date any more.
    drop index orders_seller_refunded_idx;
    drop index orders_seller_buyer_country_idx;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index orders_seller_refunded_idx on orders (seller_id, refunded_at) where refunded_at is not null;
    create index orders_seller_buyer_country_idx on orders (seller_id, buyer_country, created_at)
      where buyer_country is not null;
    drop table tax_report_days;
  `.execute(db);
}
