import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table profiles add column stripe_customer_id text unique;

    -- One row per seller: the state of their $10/month plan as Stripe last told us.
    create table subscriptions (
      user_id text primary key references "user" ("id") on delete cascade,
      stripe_subscription_id text not null unique,
      stripe_customer_id text not null,
      status text not null,
      current_period_end timestamptz,
      cancel_at_period_end boolean not null default false,
      past_due_since timestamptz,
      canceled_at timestamptz,
      updated_at timestamptz not null default now()
    );

    -- Every Stripe event we applied, so a redelivered event has no second effect.
    create table stripe_events (
      id text primary key,
      type text not null,
      account text,
      received_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table stripe_events; drop table subscriptions;
    alter table profiles drop column stripe_customer_id;
  `.execute(db);
}
