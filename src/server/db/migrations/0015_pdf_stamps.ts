import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Stamped PDFs: each buyer's copy of a product's PDFs carries their email and order on every page.
    alter table products add column stamp_pdfs boolean not null default false;

    -- One stamp per order and file (upload), queued in the order's transaction and made in the
    -- background (claimed with FOR UPDATE SKIP LOCKED, leased, retried with backoff). The stamped
    -- copy's key is recorded when the work is claimed, before anything is written under it, so the
    -- janitor can always delete it. No foreign key to uploads: a stamp outlives its upload row just
    -- long enough for the janitor to delete its copy.
    create table pdf_stamps (
      id bigint generated always as identity primary key,
      order_id text not null references orders (id) on delete cascade,
      upload_id text not null,
      seller_id text not null,
      status text not null default 'pending' check (status in ('pending', 'stamped', 'failed')),
      stamped_key text,
      stamped_size_bytes bigint,
      pages integer,
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      -- Why a failed stamp failed (contracts/pdf-stamps.ts reasons), shown to the seller.
      failure text,
      last_error text,
      created_at timestamptz not null default now(),
      finished_at timestamptz,
      unique (order_id, upload_id)
    );
    create index pdf_stamps_due on pdf_stamps (next_attempt_at) where status = 'pending';
    create index pdf_stamps_upload on pdf_stamps (upload_id);
    create index pdf_stamps_failed on pdf_stamps (seller_id, finished_at desc) where status = 'failed';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table pdf_stamps;
    alter table products drop column stamp_pdfs;
  `.execute(db);
}
