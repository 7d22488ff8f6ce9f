import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- The one queue of background work (jobs/job-queue.ts). A job is done when its row is gone; a
    -- failed one stays, for the operator (npm run jobs). While a job runs, run_at is its lease's end.
    create table jobs (
      id bigserial primary key,
      name text not null,
      payload jsonb not null default '{}',
      status text not null default 'pending' check (status in ('pending', 'failed')),
      run_at timestamptz not null default now(),
      attempts integer not null default 0,
      lease text,
      unique_key text,
      group_key text,
      last_error text,
      created_at timestamptz not null default now(),
      failed_at timestamptz
    );
    create index jobs_due_idx on jobs (run_at, id) where status = 'pending';
    create unique index jobs_one_pending_per_key_idx on jobs (unique_key)
      where status = 'pending' and unique_key is not null;
    create index jobs_failed_idx on jobs (failed_at) where status = 'failed';

    -- Work that was waiting in the old queues becomes jobs, so a deploy loses none of it.
    insert into jobs (name, payload, run_at, unique_key)
      select 'mail.send', jsonb_build_object('emailId', id), next_attempt_at, 'mail:' || id
      from outbox_emails where status = 'pending';
    insert into jobs (name, payload, run_at, unique_key, group_key)
      select 'pdf-stamps.make', jsonb_build_object('stampId', id), next_attempt_at, 'pdf-stamp:' || id,
        'seller:' || seller_id
      from pdf_stamps where status = 'pending';
    insert into jobs (name, payload, run_at, unique_key)
      select 'seller-webhooks.deliver', jsonb_build_object('deliveryId', id), next_attempt_at,
        'webhook-delivery:' || id
      from webhook_deliveries where status = 'pending';
    insert into jobs (name, payload, unique_key)
      select 'audience.queue-broadcast', jsonb_build_object('broadcastId', id), 'broadcast:' || id
      from broadcasts where status = 'sending';

    -- The queue keeps the tries and times now; these tables keep what their pages show.
    alter table outbox_emails drop column next_attempt_at;
    alter table pdf_stamps drop column next_attempt_at;
    alter table pdf_stamps drop column attempts;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table outbox_emails add column next_attempt_at timestamptz not null default now();
    alter table pdf_stamps add column next_attempt_at timestamptz not null default now();
    alter table pdf_stamps add column attempts integer not null default 0;
    drop table jobs;
  `.execute(db);
}
