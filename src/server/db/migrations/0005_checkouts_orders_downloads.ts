import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Every buyer checkout session we create, so any later event or lookup knows its seller, account
    -- and product, and whether it holds a unit of stock.
    create table checkouts (
      stripe_session_id text primary key,
      seller_id text not null references "user" ("id"),
      stripe_account_id text not null,
      product_id text references products (id) on delete set null,
      -- none: unlimited product; held: one unit taken from stock; confirmed: paid; released: given back.
      reservation text not null check (reservation in ('none', 'held', 'confirmed', 'released')),
      expires_at timestamptz not null,
      created_at timestamptz not null default now()
    );
    create index checkouts_held_expiry_idx on checkouts (expires_at) where reservation = 'held';

    -- Kept 7 years: title and amount are snapshots, so deleting a product never changes a sale.
    create table orders (
      id text primary key,
      stripe_session_id text not null unique references checkouts (stripe_session_id),
      stripe_account_id text not null,
      payment_intent_id text,
      seller_id text not null references "user" ("id"),
      product_id text references products (id) on delete set null,
      product_title text not null,
      customer_email text not null,
      amount_cents integer not null,
      currency text not null default 'usd',
      status text not null check (status in ('completed', 'refunded')),
      refunded_at timestamptz,
      downloads_used integer not null default 0,
      download_window_ends_at timestamptz not null,
      created_at timestamptz not null default now()
    );
    create index orders_seller_created_idx on orders (seller_id, created_at desc, id desc);
    create index orders_customer_email_idx on orders (lower(customer_email));
    create index orders_payment_intent_idx on orders (stripe_account_id, payment_intent_id);

    -- Per seller, kept with every order and refund: Units Sold, Total Revenue and the sales count
    -- are one row read, however many orders there are.
    create table seller_sales_totals (
      seller_id text primary key references "user" ("id"),
      orders_count integer not null default 0,
      units_sold integer not null default 0,
      revenue_cents bigint not null default 0
    );

    create table download_logs (
      id bigint generated always as identity primary key,
      order_id text not null references orders (id),
      user_agent text,
      created_at timestamptz not null default now()
    );
    create index download_logs_order_idx on download_logs (order_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table download_logs; drop table seller_sales_totals; drop table orders; drop table checkouts;`.execute(
    db,
  );
}
