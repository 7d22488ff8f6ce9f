import { type Kysely, sql } from "kysely";

/**
 * Reports and takedowns (docs/operator.md, "Reports"): anyone reports a product or a store from its page;
 * operators work through them; the seller sees the reports about their store and may answer once (a
 * counter-notice for a copyright report).
 * - `product_id` is null for a store's report; a deleted product leaves its reports (and its title as it
 *   was reported).
 * - `dmca` holds a copyright report's notice (the work, where it is, the claimant's name and contact, the
 *   signature and the two statements); `counter_notice` the seller's counter-notice.
 * - One open report per email, target and reason: the unique index makes a duplicate impossible even when
 *   two arrive at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table reports (
      id text primary key,
      seller_id text not null references "user"(id) on delete cascade,
      product_id text references products(id) on delete set null,
      product_title text,
      reason text not null
        constraint reports_reason_check
        check (reason in ('copyright', 'malware', 'illegal', 'scam', 'other')),
      details text not null default '',
      reporter_email text not null,
      reporter_locale text not null default 'en'
        constraint reports_reporter_locale_check
        check (reporter_locale in ('en', 'es', 'de', 'fr', 'pt-BR', 'ja')),
      dmca jsonb,
      status text not null default 'new'
        constraint reports_status_check
        check (status in ('new', 'in_review', 'actioned', 'dismissed')),
      status_reason text,
      seller_answer text,
      counter_notice jsonb,
      answered_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint reports_dmca_check check (reason <> 'copyright' or dmca is not null)
    );
    create unique index reports_open_once on reports
      (lower(reporter_email), seller_id, coalesce(product_id, ''), reason)
      where status in ('new', 'in_review');
    create index reports_queue_idx on reports (status, created_at desc, id desc);
    create index reports_newest_idx on reports (created_at desc, id desc);
    create index reports_seller_idx on reports (seller_id, created_at desc, id desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table reports`.execute(db);
}
