import { type Kysely, sql } from "kysely";

/**
 * Store imports (docs/store-import.md): a creator brings a store from Gumroad, Lemon Squeezy, Payhip, Polar
 * or another Flatfee instance.
 * - `store_imports`: one import, its uploaded export files (`store_import_files`), the product files the
 *   creator attached per imported product (`store_import_product_files`), its dry run's report and its run's
 *   progress. `cursor` is where a run's last committed batch ended, so a run cut short resumes there.
 * - `import_links`: what each platform record became here, keyed by the platform's id: running an import
 *   twice finds every record already linked and creates nothing twice.
 * - `store_import_resubscribes`: subscriptions that cannot move (payment methods stay with the platform),
 *   listed for the creator to invite their members to subscribe again.
 * - `orders.imported_from`: an order made on another platform, given a library here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table store_imports (
      id text primary key,
      seller_id text not null references "user"(id) on delete cascade,
      platform text not null
        check (platform in ('gumroad', 'lemonsqueezy', 'payhip', 'polar', 'flatfee')),
      status text not null default 'collecting'
        check (status in ('collecting', 'checking', 'checked', 'importing', 'imported', 'failed')),
      notify_buyers boolean not null default false,
      report jsonb,
      result jsonb,
      progress_done integer not null default 0,
      progress_total integer not null default 0,
      cursor jsonb,
      error text,
      created_at timestamptz not null default now(),
      checked_at timestamptz,
      started_at timestamptz,
      finished_at timestamptz
    );
    create index store_imports_seller_idx on store_imports (seller_id, created_at desc);

    create table store_import_files (
      id text primary key,
      import_id text not null references store_imports(id) on delete cascade,
      seller_id text not null references "user"(id) on delete cascade,
      position integer not null,
      file_name text not null,
      reader text not null,
      size_bytes bigint not null,
      storage_key text not null,
      created_at timestamptz not null default now(),
      unique (import_id, position)
    );

    create table store_import_product_files (
      import_id text not null references store_imports(id) on delete cascade,
      product_external_id text not null,
      upload_id text not null references uploads(id) on delete cascade,
      position integer not null,
      primary key (import_id, product_external_id, upload_id)
    );

    create table import_links (
      seller_id text not null references "user"(id) on delete cascade,
      platform text not null,
      -- product, order, customer, subscription; an archive's other records (discount_code, membership, post,
      -- webhook, invoice) too.
      kind text not null,
      external_id text not null,
      local_id text not null,
      import_id text references store_imports(id) on delete set null,
      created_at timestamptz not null default now(),
      primary key (seller_id, platform, kind, external_id)
    );

    create table store_import_resubscribes (
      seller_id text not null references "user"(id) on delete cascade,
      platform text not null,
      external_id text not null,
      import_id text references store_imports(id) on delete set null,
      email text not null,
      product_title text not null,
      status text not null,
      amount_cents integer not null,
      currency text not null,
      billing_interval text not null check (billing_interval in ('month', 'year')),
      current_period_end timestamptz,
      created_at timestamptz not null default now(),
      primary key (seller_id, platform, external_id)
    );

    alter table orders add column imported_from text;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table orders drop column imported_from;
    drop table store_import_resubscribes;
    drop table import_links;
    drop table store_import_product_files;
    drop table store_import_files;
    drop table store_imports;
  `.execute(db);
}
