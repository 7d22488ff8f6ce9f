import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- A seller's discount codes. The code is stored upper-case, so codes are case-insensitive and
    -- unique per seller. Uses are two stored counters (never a count over checkouts): a checkout
    -- reserves one with a conditional update (uses_reserved + uses_used < max_uses), as it takes a unit
    -- of stock; payment moves it to uses_used, an unpaid end gives it back.
    create table discount_codes (
      id text primary key,
      seller_id text not null references "user" ("id") on delete cascade,
      code text not null check (code ~ '^[A-Z0-9_-]+$'),
      -- percent: value is 1-100 percent off; amount: value is cents off.
      kind text not null check (kind in ('percent', 'amount')),
      value integer not null check (value > 0 and (kind = 'amount' or value <= 100)),
      -- false: only the products listed in discount_code_products.
      all_products boolean not null default true,
      starts_at timestamptz,
      ends_at timestamptz,
      max_uses integer check (max_uses > 0),
      uses_reserved integer not null default 0 check (uses_reserved >= 0),
      uses_used integer not null default 0 check (uses_used >= 0),
      paused boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (ends_at is null or starts_at is null or ends_at > starts_at)
    );
    create unique index discount_codes_seller_code_idx on discount_codes (seller_id, code);

    create table discount_code_products (
      discount_code_id text not null references discount_codes (id) on delete cascade,
      product_id text not null references products (id) on delete cascade,
      primary key (discount_code_id, product_id)
    );
    create index discount_code_products_product_idx on discount_code_products (product_id);

    -- What the checkout was priced with, decided by the server when it was recorded. The code's text
    -- and the amount saved are snapshots: a code deleted later leaves them as they were.
    alter table checkouts add column discount_code_id text references discount_codes (id) on delete set null;
    alter table checkouts add column discount_code text;
    alter table checkouts add column original_price_cents integer;
    alter table checkouts add column discount_cents integer not null default 0;
    -- One network holds one use of a code for a product at a time, as it holds one unit of stock.
    create unique index checkouts_one_code_use_per_network_idx
      on checkouts (discount_code_id, product_id, network_hash)
      where state = 'open' and discount_code_id is not null;

    alter table orders add column discount_code_id text references discount_codes (id) on delete set null;
    alter table orders add column discount_code text;
    alter table orders add column discount_cents integer not null default 0;
    -- Each code's revenue on the discounts page.
    create index orders_discount_code_idx on orders (discount_code_id) where discount_code_id is not null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index orders_discount_code_idx;
    alter table orders drop column discount_cents;
    alter table orders drop column discount_code;
    alter table orders drop column discount_code_id;
    drop index checkouts_one_code_use_per_network_idx;
    alter table checkouts drop column discount_cents;
    alter table checkouts drop column original_price_cents;
    alter table checkouts drop column discount_code;
    alter table checkouts drop column discount_code_id;
    drop table discount_code_products;
    drop table discount_codes;
  `.execute(db);
}
