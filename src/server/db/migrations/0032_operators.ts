import { type Kysely, sql } from "kysely";

/**
 * The operator's side (docs/operator.md): who runs the platform, and the record of what they did.
 * - `operators`: granted and revoked only from the command line (`npm run operator:grant`), never the web.
 * - `audit_log`: every operator action, its reason required, append-only. A trigger refuses updates and
 *   deletes so no code path (nor a mistaken query) can rewrite history; only dropping the table could.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table operators (
      user_id text primary key references "user"(id) on delete cascade,
      granted_at timestamptz not null default now(),
      granted_by text not null
    );

    create table audit_log (
      id bigserial primary key,
      -- Who: the operator's user id and email as they were (a revoked operator's entries stay readable).
      actor_id text,
      actor_email text not null,
      action text not null,
      seller_id text,
      product_id text,
      report_id text,
      reason text not null constraint audit_log_reason_check check (length(trim(reason)) > 0),
      details jsonb not null default '{}'::jsonb,
      created_at timestamptz not null default now()
    );
    create index audit_log_seller_idx on audit_log (seller_id, id desc) where seller_id is not null;
    create index audit_log_report_idx on audit_log (report_id, id) where report_id is not null;

    create function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_log is append-only';
    end;
    $$;
    create trigger audit_log_append_only before update or delete on audit_log
      for each row execute function audit_log_append_only();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table audit_log;
    drop function audit_log_append_only();
    drop table operators;
  `.execute(db);
}
