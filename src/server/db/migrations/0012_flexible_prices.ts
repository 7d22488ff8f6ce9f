import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Pay what you want: a flexible product's price_cents is its minimum (which may be 0), and the
    -- product page offers suggested_price_cents. A fixed price may be 0 too: a free product, which
    -- skips Stripe. Amounts between $0 and Stripe's $0.50 minimum are never stored.
    alter table products drop constraint products_price_cents_check;
    alter table products add column price_mode text not null default 'fixed'
      check (price_mode in ('fixed', 'flexible'));
    alter table products add column suggested_price_cents integer;
    alter table products add constraint products_price_shape check (
      price_cents >= 0
      and (price_mode = 'fixed') = (suggested_price_cents is null)
      and (suggested_price_cents is null or suggested_price_cents >= price_cents)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table products drop constraint products_price_shape;
    alter table products add constraint products_price_cents_check check (price_cents > 0) not valid;
    alter table products drop column suggested_price_cents;
    alter table products drop column price_mode;
  `.execute(db);
}
