import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- The tax report subtracts refunds in the quarter of the refund: a seller's refunds by refunded_at.
    create index orders_seller_refunded_idx on orders (seller_id, refunded_at) where refunded_at is not null;
    -- The tax guide's sales by buyer country (EU and UK since the first sale, US states this year).
    create index orders_seller_buyer_country_idx on orders (seller_id, buyer_country, created_at)
      where buyer_country is not null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index orders_seller_buyer_country_idx;
    drop index orders_seller_refunded_idx;
  `.execute(db);
}
