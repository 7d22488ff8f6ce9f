import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- The analytics page reads only these roll-ups, kept in the transaction of each view, sale and
    -- refund. Days are UTC days, like store_view_days. Product ids are kept without a foreign key: a
    -- deleted product's sales stay in the seller's history.
    create table analytics_product_days (
      seller_id text not null references "user" ("id") on delete cascade,
      day date not null,
      product_id text not null,
      views integer not null default 0,
      units integer not null default 0,
      -- integer (up to $21M a day per row): its sums are bigint, much cheaper than bigint sums (numeric).
      revenue_cents integer not null default 0,
      primary key (seller_id, day, product_id)
    );
    -- Per source: the referring host and the link's utm fields, '' when absent ('' everywhere: direct).
    create table analytics_source_days (
      seller_id text not null references "user" ("id") on delete cascade,
      day date not null,
      product_id text not null,
      referrer_host text not null default '',
      utm_source text not null default '',
      utm_medium text not null default '',
      utm_campaign text not null default '',
      views integer not null default 0,
      units integer not null default 0,
      revenue_cents integer not null default 0,
      primary key (seller_id, day, product_id, referrer_host, utm_source, utm_medium, utm_campaign)
    );
    -- The last counted view of a product per visitor (keyed hash, no IP): a view within 30 minutes of
    -- it does not count again. Rows older than that are pruned.
    create table product_view_visits (
      product_id text not null,
      visitor_hash text not null,
      last_viewed_at timestamptz not null,
      primary key (product_id, visitor_hash)
    );
    create index product_view_visits_last_viewed_at on product_view_visits (last_viewed_at);
    -- Where the visit that pressed Buy Now came from, recorded with the checkout.
    create table checkout_sources (
      checkout_id text primary key references checkouts (id) on delete cascade,
      referrer_host text not null default '',
      utm_source text not null default '',
      utm_medium text not null default '',
      utm_campaign text not null default ''
    );
    -- How a sale was counted (its day, product, source), so a refund takes back exactly that.
    create table order_attributions (
      order_id text primary key references orders (id) on delete cascade,
      seller_id text not null,
      product_id text not null,
      day date not null,
      referrer_host text not null default '',
      utm_source text not null default '',
      utm_medium text not null default '',
      utm_campaign text not null default ''
    );

    -- Sales made before this migration: counted on their day, as direct.
    insert into order_attributions (order_id, seller_id, product_id, day)
    select id, seller_id, coalesce(product_id, ''), (created_at at time zone 'UTC')::date
    from orders where status = 'completed';
    insert into analytics_product_days (seller_id, day, product_id, units, revenue_cents)
    select a.seller_id, a.day, a.product_id, count(*), sum(o.amount_cents)
    from order_attributions a join orders o on o.id = a.order_id
    group by 1, 2, 3;
    insert into analytics_source_days (seller_id, day, product_id, units, revenue_cents)
    select seller_id, day, product_id, units, revenue_cents from analytics_product_days;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table order_attributions;
    drop table checkout_sources;
    drop table product_view_visits;
    drop table analytics_source_days;
    drop table analytics_product_days;
  `.execute(db);
}
