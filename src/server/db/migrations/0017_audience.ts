import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- One row per buyer email of a seller, kept with each order and refund (orders/order-changes.ts),
    -- so the customers page and the "all buyers" audience never group 100,000 orders. Emails are
    -- lower-cased: one person, one row.
    create table customers (
      seller_id text not null references "user" ("id") on delete cascade,
      email text not null,
      first_purchase_at timestamptz not null,
      last_purchase_at timestamptz not null,
      orders_count integer not null default 0 check (orders_count >= 0),
      -- Orders not refunded: a buyer with none gets no email.
      completed_count integer not null default 0 check (completed_count >= 0),
      -- Net of refunds.
      total_cents bigint not null default 0,
      -- Titles as bought (snapshots, like the orders'), in the order first bought.
      product_titles text[] not null default '{}',
      primary key (seller_id, email)
    );
    -- The customers page's keyset: most recent buyer first.
    create index customers_seller_recent_idx on customers (seller_id, last_purchase_at desc, email desc);
    -- How many customers a seller has, kept as rows are added (a count over 100,000 rows is not free).
    create table customer_counts (
      seller_id text primary key references "user" ("id") on delete cascade,
      customers integer not null default 0
    );

    -- Who bought a product and still has it: the audience of an email to one product's buyers.
    create table customer_products (
      product_id text not null references products (id) on delete cascade,
      email text not null,
      seller_id text not null references "user" ("id") on delete cascade,
      completed_count integer not null default 0 check (completed_count >= 0),
      primary key (product_id, email)
    );

    -- A buyer who unsubscribed from one seller's emails (receipts and download links still come).
    create table email_unsubscribes (
      seller_id text not null references "user" ("id") on delete cascade,
      email text not null,
      created_at timestamptz not null default now(),
      primary key (seller_id, email)
    );

    -- A seller's message to their buyers. The row is the durable job: the maintenance job (and the
    -- send itself) queue its emails into the outbox in batches, each batch one transaction that moves
    -- last_email forward, so a large audience is never one huge transaction and a crash resumes it.
    create table broadcasts (
      id text primary key,
      seller_id text not null references "user" ("id") on delete cascade,
      kind text not null check (kind in ('message', 'product-update')),
      audience text not null check (audience in ('all', 'product')),
      -- The audience's product (a deleted product's broadcast keeps its title, and reaches no one more).
      product_id text references products (id) on delete set null,
      product_title text,
      subject text not null,
      message text not null,
      status text not null default 'sending' check (status in ('sending', 'sent')),
      recipients_count integer not null default 0,
      last_email text,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create index broadcasts_seller_created_idx on broadcasts (seller_id, created_at desc);
    create index broadcasts_product_created_idx on broadcasts (product_id, created_at desc)
      where kind = 'product-update';
    create index broadcasts_sending_idx on broadcasts (created_at) where status = 'sending';

    -- Emails may carry headers (List-Unsubscribe for one-click unsubscribe, RFC 8058).
    alter table outbox_emails add column headers jsonb;
  `.execute(db);
  await backfillCustomers(db);
}

/** The roll-ups of the orders made before them: run once by `up`, and by a test on its own. */
export async function backfillCustomers(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into customers
      (seller_id, email, first_purchase_at, last_purchase_at, orders_count, completed_count, total_cents,
       product_titles)
    select seller_id, email, min(first_at), max(last_at), sum(orders), sum(completed), sum(total),
      array_agg(product_title order by first_at, product_title)
    from (
      select seller_id, lower(customer_email) as email, product_title, min(created_at) as first_at,
        max(created_at) as last_at, count(*) as orders, count(*) filter (where status = 'completed') as completed,
        coalesce(sum(amount_cents) filter (where status = 'completed'), 0) as total
      from orders
      group by seller_id, lower(customer_email), product_title
    ) per_title
    group by seller_id, email;

    insert into customer_counts (seller_id, customers)
    select seller_id, count(*) from customers group by seller_id;

    insert into customer_products (product_id, email, seller_id, completed_count)
    select product_id, lower(customer_email), min(seller_id), count(*) filter (where status = 'completed')
    from orders
    where product_id is not null
    group by product_id, lower(customer_email);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table outbox_emails drop column headers;
    drop table broadcasts;
    drop table email_unsubscribes;
    drop table customer_products;
    drop table customer_counts;
    drop table customers;
  `.execute(db);
}
