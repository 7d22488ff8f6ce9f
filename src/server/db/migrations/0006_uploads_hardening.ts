import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- 'checking': one completion claimed the upload and is checking its bytes; its link accepts no more.
    alter table uploads drop constraint uploads_status_check;
    alter table uploads add constraint uploads_status_check
      check (status in ('pending', 'checking', 'completed', 'attached'));
    -- Covers and profile pictures: the uploaded image while it is checked and rendered.
    alter table uploads add column source_key text;
    -- The local upload route looks an upload up by the key its link writes to.
    create unique index uploads_upload_key_idx on uploads (upload_key);
    drop index uploads_pending_expiry_idx;
    create index uploads_open_expiry_idx on uploads (expires_at) where status in ('pending', 'checking');

    -- Every key an upload link was signed for, deleted by the janitor once no PUT to it can still be
    -- running. A signed S3 link cannot be revoked, so bytes sent after completion (or after a refusal
    -- deleted the row) would otherwise stay in storage, outside any quota.
    create table upload_key_sweeps (
      upload_key text primary key,
      sweep_after timestamptz not null
    );
    create index upload_key_sweeps_due_idx on upload_key_sweeps (sweep_after);
    -- Links signed before this migration lived an hour.
    insert into upload_key_sweeps (upload_key, sweep_after)
      select upload_key, created_at + interval '3 hours' from uploads;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table upload_key_sweeps;
    drop index uploads_open_expiry_idx;
    create index uploads_pending_expiry_idx on uploads (expires_at) where status = 'pending';
    drop index uploads_upload_key_idx;
    alter table uploads drop column source_key;
    update uploads set status = 'pending' where status = 'checking';
    alter table uploads drop constraint uploads_status_check;
    alter table uploads add constraint uploads_status_check
      check (status in ('pending', 'completed', 'attached'));
  `.execute(db);
}
