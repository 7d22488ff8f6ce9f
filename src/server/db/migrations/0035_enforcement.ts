import { type Kysely, sql } from "kysely";

/**
 * Enforcement (docs/operator.md, "Enforcement"): what operators do about a seller or a product, and the
 * sellers' appeals.
 * - `enforcement_actions`: one row per action (warn, restrict, suspend, take-down), kept forever; an
 *   action in force has no `lifted_at`. A seller has at most one restriction or suspension in force and a
 *   product at most one take-down (partial unique indexes), so the public pages read their standing with
 *   one indexed join.
 * - `enforcement_appeals`: a seller's appeal of one action; at most one open per action.
 * - Indexes for the operator's seller search (prefix of email or store name, any case) and the
 *   platform's monthly figures.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table enforcement_actions (
      id text primary key,
      seller_id text not null references profiles(id) on delete cascade,
      product_id text references products(id) on delete cascade,
      kind text not null constraint enforcement_actions_kind_check
        check (kind in ('warn', 'restrict', 'suspend', 'take-down')),
      reason text not null constraint enforcement_actions_reason_check check (length(trim(reason)) > 0),
      report_id text,
      revoke_downloads boolean not null default false,
      actor_email text not null,
      created_at timestamptz not null default now(),
      lifted_at timestamptz,
      lifted_reason text,
      constraint enforcement_actions_product_check check ((kind = 'take-down') = (product_id is not null))
    );
    create unique index enforcement_actions_seller_in_force_idx on enforcement_actions (seller_id)
      where lifted_at is null and kind in ('restrict', 'suspend');
    create unique index enforcement_actions_product_in_force_idx on enforcement_actions (product_id)
      where lifted_at is null and kind = 'take-down';
    create index enforcement_actions_seller_idx on enforcement_actions (seller_id, created_at desc);

    create table enforcement_appeals (
      id text primary key,
      action_id text not null references enforcement_actions(id) on delete cascade,
      seller_id text not null references profiles(id) on delete cascade,
      body text not null constraint enforcement_appeals_body_check check (length(trim(body)) > 0),
      status text not null default 'open' constraint enforcement_appeals_status_check
        check (status in ('open', 'reinstated', 'upheld', 'closed')),
      created_at timestamptz not null default now(),
      answered_at timestamptz,
      answer_reason text,
      answered_by text
    );
    create unique index enforcement_appeals_open_idx on enforcement_appeals (action_id) where status = 'open';
    create index enforcement_appeals_queue_idx on enforcement_appeals (created_at, id) where status = 'open';
    create index enforcement_appeals_seller_idx on enforcement_appeals (seller_id, created_at desc);

    create index profiles_store_name_prefix_idx on profiles (lower(store_name) text_pattern_ops);
    create index profiles_created_idx on profiles (created_at desc, id desc);
    create index user_email_prefix_idx on "user" (lower(email) text_pattern_ops);
    create index orders_completed_month_idx on orders (created_at) where status = 'completed';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index orders_completed_month_idx;
    drop index user_email_prefix_idx;
    drop index profiles_created_idx;
    drop index profiles_store_name_prefix_idx;
    drop table enforcement_appeals;
    drop table enforcement_actions;
  `.execute(db);
}
