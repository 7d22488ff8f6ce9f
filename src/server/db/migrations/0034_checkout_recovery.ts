import { type Kysely, sql } from "kysely";

/**
 * Checkout recovery (docs/checkout-recovery.md). A store sends recovery emails unless the seller turns
 * them off; a checkout made from a recovery link names the expired checkout it recovers; each expired
 * checkout whose buyer agreed on Checkout to hear from the store gets at most one recovery row (its
 * email, when it is due, what became of it); analytics count recovered sales and revenue beside the rest.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table profiles add column checkout_recovery_emails boolean not null default true;

    alter table checkouts add column recovered_from text;

    create table checkout_recoveries (
      checkout_id text primary key references checkouts (id) on delete cascade,
      seller_id text not null references "user" ("id") on delete cascade,
      product_id text not null,
      email text not null,
      buyer_locale text not null
        constraint checkout_recoveries_buyer_locale_check check (buyer_locale in ('en', 'es', 'de', 'fr', 'pt-BR', 'ja')),
      currency text not null,
      amount_cents integer not null,
      expired_at timestamptz not null,
      send_at timestamptz not null,
      status text not null default 'scheduled'
        constraint checkout_recoveries_status_check check (status in ('scheduled', 'sent', 'skipped')),
      skip_reason text,
      sent_at timestamptz,
      created_at timestamptz not null default now()
    );
    -- The weekly limit: the last email sent to this buyer about this product.
    create index checkout_recoveries_sent_idx on checkout_recoveries (seller_id, product_id, email, sent_at)
      where status = 'sent';

    alter table analytics_product_days add column recovered_units integer not null default 0;
    alter table analytics_product_days add column recovered_cents integer not null default 0;
    alter table analytics_source_days add column recovered_units integer not null default 0;
    alter table analytics_source_days add column recovered_cents integer not null default 0;
    alter table order_attributions add column recovered boolean not null default false;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table order_attributions drop column recovered;
    alter table analytics_source_days drop column recovered_cents;
    alter table analytics_source_days drop column recovered_units;
    alter table analytics_product_days drop column recovered_cents;
    alter table analytics_product_days drop column recovered_units;
    drop table checkout_recoveries;
    alter table checkouts drop column recovered_from;
    alter table profiles drop column checkout_recovery_emails;
  `.execute(db);
}
