import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- A product may issue license keys: every delivered order of it then gets one key, made in the
    -- order's own transaction. The key is stored as shown (upper-case Crockford base32 in 4 groups of 8)
    -- and looked up by (product_id, key), the unique index. product_id is a copy, not a reference: a
    -- key outlives its product's deletion (the buyer paid; the seller's software may still ask).
    alter table products add column issue_license_keys boolean not null default false;

    create table license_keys (
      order_id text primary key references orders (id) on delete cascade,
      seller_id text not null references "user" ("id") on delete cascade,
      product_id text not null,
      key text not null check (key ~ '^[0-9A-Z]{8}(-[0-9A-Z]{8}){3}$'),
      -- Set by the seller; a disabled key is refused until re-enabled.
      disabled_at timestamptz,
      -- Verifications that counted (increment_uses_count), each one an atomic uses = uses + 1.
      uses integer not null default 0 check (uses >= 0),
      last_verified_at timestamptz,
      created_at timestamptz not null default now()
    );
    create unique index license_keys_product_key_idx on license_keys (product_id, key);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table license_keys;
    alter table products drop column issue_license_keys;
  `.execute(db);
}
