import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- A product has 1 to 20 files, in the seller's order, each with the name buyers see. Each row owns
    -- its checked upload (an upload is attached once), and the upload can't be deleted while a row
    -- points at it: bytes go only once no product file needs them.
    create table product_files (
      id text primary key,
      product_id text not null references products (id) on delete cascade,
      upload_id text not null unique references uploads (id),
      position integer not null check (position >= 0),
      display_name text not null check (length(display_name) between 1 and 200),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      -- Checked at commit, so an edit can renumber every file in any order.
      constraint product_files_position_key unique (product_id, position) deferrable initially deferred
    );

    -- Every existing product's one file becomes its first file.
    insert into product_files (id, product_id, upload_id, position, display_name, created_at, updated_at)
    select gen_random_uuid()::text, id, file_upload_id, 0, left(file_name, 200), created_at, updated_at
    from products;

    -- The download rule with several files: 3 downloads of each file (of each version of a file: a
    -- replaced file has a new upload) within the order's 30 days, counted here with one conditional
    -- upsert per download. orders.downloads_used stays the order's total, for the seller's sales table.
    create table order_file_downloads (
      order_id text not null references orders (id) on delete cascade,
      upload_id text not null references uploads (id) on delete cascade,
      downloads_used integer not null check (downloads_used >= 0),
      primary key (order_id, upload_id)
    );
    -- Downloads already made count against the file they were of.
    insert into order_file_downloads (order_id, upload_id, downloads_used)
    select orders.id, products.file_upload_id, least(orders.downloads_used, 3)
    from orders join products on products.id = orders.product_id
    where orders.downloads_used > 0;

    alter table download_logs add column upload_id text references uploads (id) on delete set null;

    alter table products drop column file_upload_id;
    alter table products drop column file_name;
    alter table products drop column file_size_bytes;
    alter table products drop column file_type;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table products add column file_upload_id text references uploads (id);
    alter table products add column file_name text;
    alter table products add column file_size_bytes bigint;
    alter table products add column file_type text;
    update products set
      file_upload_id = first.upload_id,
      file_name = first.display_name,
      file_size_bytes = first.size_bytes,
      file_type = first.content_type
    from (
      select distinct on (product_files.product_id) product_files.product_id, product_files.upload_id,
        product_files.display_name, uploads.size_bytes, uploads.content_type
      from product_files join uploads on uploads.id = product_files.upload_id
      order by product_files.product_id, product_files.position
    ) first
    where first.product_id = products.id;
    alter table products alter column file_upload_id set not null;
    alter table products alter column file_name set not null;
    alter table download_logs drop column upload_id;
    drop table order_file_downloads;
    drop table product_files;
  `.execute(db);
}
