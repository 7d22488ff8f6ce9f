import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- A seller's keys to the REST API under /api/v1. The key itself is never stored: only its SHA-256
    -- (a 190-bit random secret needs no slow hash) and the lookup id it starts with, which is unique, is
    -- what the seller recognises it by, and finds the row before the hash is compared in constant time.
    -- A revoked key keeps its row (its requests still name it) until maintenance drops it.
    create table api_keys (
      id text primary key,
      seller_id text not null references "user" ("id") on delete cascade,
      name text not null,
      lookup_id text not null unique,
      secret_hash bytea not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    );
    create index api_keys_seller_idx on api_keys (seller_id, created_at desc) where revoked_at is null;

    -- Every call made with a key, for the seller to see; maintenance drops what is older than 30 days.
    create table api_request_logs (
      id bigint generated always as identity primary key,
      seller_id text not null references "user" ("id") on delete cascade,
      api_key_id text not null references api_keys (id) on delete cascade,
      method text not null,
      path text not null,
      status integer not null,
      created_at timestamptz not null default now()
    );
    create index api_request_logs_seller_idx on api_request_logs (seller_id, id desc);
    create index api_request_logs_created_idx on api_request_logs (created_at);
    create index api_request_logs_key_idx on api_request_logs (api_key_id);

    -- The API's sales list filtered by product, newest first, without reading the seller's other sales.
    create index orders_product_created_idx on orders (product_id, created_at desc, id desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index orders_product_created_idx;
    drop table api_request_logs;
    drop table api_keys;
  `.execute(db);
}
