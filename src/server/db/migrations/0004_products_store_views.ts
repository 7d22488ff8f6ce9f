import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table products (
      id text primary key,
      user_id text not null references "user" ("id") on delete cascade,
      title text not null,
      description text not null default '',
      price_cents integer not null check (price_cents > 0),
      file_upload_id text not null references uploads (id),
      cover_upload_id text references uploads (id),
      file_name text not null,
      file_size_bytes bigint,
      file_type text,
      cover_image_url text,
      cover_thumbnail_url text,
      inventory_type text not null check (inventory_type in ('unlimited', 'limited')),
      -- A stored counter (never a sum over orders): checkout reserves from it with a conditional update.
      quantity_available integer check (quantity_available >= 0),
      is_active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check ((inventory_type = 'limited') = (quantity_available is not null))
    );
    create index products_seller_created_idx on products (user_id, created_at desc);

    alter table profiles add column profile_picture_upload_id text references uploads (id) on delete set null;

    create table store_views (
      id bigint generated always as identity primary key,
      store_owner_id text not null references "user" ("id") on delete cascade,
      viewed_at timestamptz not null default now(),
      user_agent text,
      -- Keyed hash of IP + user agent: lets repeated reloads be ignored without storing the IP.
      visitor_hash text not null
    );
    create index store_views_owner_time_idx on store_views (store_owner_id, viewed_at);
    create index store_views_visitor_idx on store_views (store_owner_id, visitor_hash, viewed_at);

    -- Views per store per UTC day, kept with each view: the dashboard sums at most a few hundred rows,
    -- never millions of views.
    create table store_view_days (
      store_owner_id text not null references "user" ("id") on delete cascade,
      day date not null,
      views integer not null,
      primary key (store_owner_id, day)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table store_view_days;
    drop table store_views;
    alter table profiles drop column profile_picture_upload_id;
    drop table products;
  `.execute(db);
}
