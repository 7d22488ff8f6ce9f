import { type Kysely, sql } from "kysely";

/**
 * Store exports (docs/export-format.md): the creator's archive of their whole store, built by a job.
 * - `status`: queued → building → ready → expired, or failed. At most one queued or building per
 *   seller: the partial unique index refuses a second even when two requests arrive at once.
 * - `bytes_done` / `bytes_total`: the stored files copied so far (what takes the time); `records_done`:
 *   the NDJSON records written so far. Updated every second or so while it builds, never per row.
 * - `storage_key`: the archive in the store-exports bucket, kept until `expires_at` (7 days after
 *   `ready_at`), then deleted by housekeeping.
 * Also the indexes the export's readers page with (seller, then their keyset order) where none existed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table store_exports (
      id text primary key,
      seller_id text not null references "user"(id) on delete cascade,
      status text not null default 'queued'
        constraint store_exports_status_check
        check (status in ('queued', 'building', 'ready', 'failed', 'expired')),
      bytes_done bigint not null default 0,
      bytes_total bigint not null default 0,
      records_done integer not null default 0,
      size_bytes bigint,
      storage_key text,
      error text,
      created_at timestamptz not null default now(),
      ready_at timestamptz,
      expires_at timestamptz
    );
    create unique index store_exports_one_active_idx on store_exports (seller_id)
      where status in ('queued', 'building');
    create index store_exports_seller_idx on store_exports (seller_id, created_at desc);
    create index store_exports_expiry_idx on store_exports (expires_at) where status = 'ready';
    create index license_keys_seller_order_idx on license_keys (seller_id, order_id);
    create index membership_posts_seller_idx on membership_posts (seller_id, created_at, id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index membership_posts_seller_idx;
    drop index license_keys_seller_order_idx;
    drop table store_exports;
  `.execute(db);
}
