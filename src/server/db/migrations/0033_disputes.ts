import { type Kysely, sql } from "kysely";

/**
 * Disputes of one-time sales (docs/disputes.md). A row per Stripe dispute (its id), kept from Stripe's
 * state as read back on each `charge.dispute.*` event, with the creator's evidence draft, their auto-submit
 * choice and when the evidence went to Stripe. The order carries its latest dispute's id and where it
 * leaves the sale (`open`: downloads and license key suspended; `won`: restored; `lost`: kept revoked).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table disputes (
      id text primary key,
      seller_id text not null,
      order_id text not null references orders(id) on delete cascade,
      stripe_account_id text not null,
      charge_id text,
      amount_cents integer not null,
      currency text not null constraint disputes_currency_check check (currency ~ '^[a-z]{3}$'),
      reason text not null,
      status text not null,
      due_by timestamptz,
      auto_submit boolean not null default false,
      evidence jsonb,
      evidence_file_id text,
      submitted_at timestamptz,
      outcome text constraint disputes_outcome_check check (outcome in ('won', 'lost')),
      closed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index disputes_seller_created on disputes (seller_id, created_at desc);
    create index disputes_order on disputes (order_id);

    alter table orders add column dispute_id text;
    alter table orders add column dispute_status text
      constraint orders_dispute_status_check check (dispute_status in ('open', 'won', 'lost'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table orders drop column dispute_status;
    alter table orders drop column dispute_id;
    drop table disputes;
  `.execute(db);
}
