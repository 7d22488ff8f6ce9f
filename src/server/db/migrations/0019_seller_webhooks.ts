import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Where a seller's tools want to hear about sales: an URL, the events it chose and the secret its
    -- deliveries are signed with (Standard Webhooks: whsec_ + base64 of the key bytes). The secret is
    -- kept readable because every delivery is signed with it and the seller can reveal it again.
    create table webhook_endpoints (
      id text primary key,
      seller_id text not null references "user" ("id") on delete cascade,
      url text not null,
      events text[] not null check (cardinality(events) > 0),
      secret text not null,
      created_at timestamptz not null default now()
    );
    create index webhook_endpoints_seller_idx on webhook_endpoints (seller_id, created_at);

    -- The durable queue: one row per event and endpoint, inserted in the transaction of the change it
    -- announces. Its id is the webhook-id the receiver sees on every attempt (to drop duplicates), and
    -- the payload is the exact body that is signed. A resend starts a new round of retries: the 3-day
    -- window and the backoff count from round_started_at and round_attempts; attempts counts them all.
    create table webhook_deliveries (
      id text primary key,
      endpoint_id text not null references webhook_endpoints (id) on delete cascade,
      seller_id text not null references "user" ("id") on delete cascade,
      event_type text not null,
      payload text not null,
      status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
      attempts integer not null default 0,
      round_attempts integer not null default 0,
      round_started_at timestamptz not null,
      -- While pending: when the next attempt is due (or the lease of one in flight ends).
      next_attempt_at timestamptz not null,
      last_attempt_at timestamptz,
      last_response_status integer,
      last_error text,
      created_at timestamptz not null default now()
    );
    create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending';
    create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, created_at desc, id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table webhook_deliveries;
    drop table webhook_endpoints;
  `.execute(db);
}
