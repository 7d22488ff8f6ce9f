import { type Kysely, sql } from "kysely";

// One row per file a seller uploads: a pending intent until the bytes are checked, then the stored
// file. Sizes live here so the storage quota is one SQL sum, never a listing of storage.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table uploads (
      id text primary key,
      seller_id text not null references "user" ("id") on delete cascade,
      purpose text not null check (purpose in ('product-file', 'product-cover', 'profile-picture')),
      status text not null default 'pending' check (status in ('pending', 'completed', 'attached')),
      original_name text not null,
      declared_size_bytes bigint not null check (declared_size_bytes >= 0),
      declared_type text not null,
      upload_key text not null,
      bucket text check (bucket in ('product-files', 'product-covers')),
      storage_key text,
      thumbnail_key text,
      size_bytes bigint,
      content_type text,
      expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      completed_at timestamptz
    );
    create index uploads_seller_idx on uploads (seller_id, status);
    create index uploads_pending_expiry_idx on uploads (expires_at) where status = 'pending';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table uploads`.execute(db);
}
