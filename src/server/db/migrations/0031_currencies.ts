import { type Kysely, sql } from "kysely";

/**
 * Currencies (docs/money.md). A store sells in its store currency (chosen before its first sale) and may
 * name fixed prices in other currencies per product; Adaptive Pricing lets Stripe convert for the rest.
 * A checkout records the currency it was made in; an order keeps what the buyer paid (amount_cents in
 * `currency`, the presentment) and what it settled as in the store currency (settlement_cents in
 * settlement_currency), which every total adds up. An amount-off code is an amount of one currency.
 * Everything before was US dollars, so every existing row settles as it was paid.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table profiles add column store_currency text not null default 'usd'
      constraint profiles_store_currency_check check (store_currency ~ '^[a-z]{3}$');
    alter table profiles add column adaptive_pricing boolean not null default false;

    create table product_prices (
      product_id text not null references products(id) on delete cascade,
      seller_id text not null,
      currency text not null constraint product_prices_currency_check check (currency ~ '^[a-z]{3}$'),
      amount_cents integer not null constraint product_prices_amount_check check (amount_cents > 0),
      primary key (product_id, currency)
    );

    alter table checkouts add column currency text not null default 'usd';

    alter table orders add column settlement_cents integer;
    alter table orders add column settlement_currency text;
    update orders set settlement_cents = amount_cents, settlement_currency = currency;
    alter table orders alter column settlement_cents set not null;
    alter table orders alter column settlement_currency set not null;

    -- A tier's Stripe price is in the store currency of when it was made: a store that changes its
    -- currency before its first sale makes new ones.
    alter table membership_tier_prices add column currency text not null default 'usd';
    alter table membership_tier_prices drop constraint membership_tier_prices_pkey;
    alter table membership_tier_prices add primary key
      (tier_id, billing_interval, amount_cents, stripe_account_id, tax_behavior, tax_code, currency);

    -- A membership's amount is in the currency it was subscribed in.
    alter table memberships add column currency text not null default 'usd';

    alter table discount_codes add column currency text;
    update discount_codes set currency = 'usd' where kind = 'amount';
    alter table discount_codes add constraint discount_codes_currency_check
      check ((kind = 'amount') = (currency is not null));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table discount_codes drop constraint discount_codes_currency_check;
    alter table discount_codes drop column currency;
    alter table memberships drop column currency;
    alter table orders drop column settlement_currency;
    alter table orders drop column settlement_cents;
    alter table checkouts drop column currency;
    delete from membership_tier_prices where currency <> 'usd';
    alter table membership_tier_prices drop constraint membership_tier_prices_pkey;
    alter table membership_tier_prices add primary key
      (tier_id, billing_interval, amount_cents, stripe_account_id, tax_behavior, tax_code);
    alter table membership_tier_prices drop column currency;
    drop table product_prices;
    alter table profiles drop column adaptive_pricing;
    alter table profiles drop column store_currency;
  `.execute(db);
}
