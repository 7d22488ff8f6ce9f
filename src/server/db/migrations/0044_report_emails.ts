import { type Kysely, sql } from "kysely";

/**
 * Reports' emails and the counter-notice's timer (docs/operator.md, "Emails about a report" and
 * "Counter-notices"):
 * - `seller_notified_at`: when the seller was emailed about this report. At most one such email per
 *   seller an hour (a campaign of reports sends one), so the newest of the seller's reports with it set
 *   says whether another may go; `seller_notice_skipped` marks a report whose email the hour's cap held
 *   back (the dashboard shows it). Rows made before this migration have neither: they predate the email.
 * - `counter_notice_forwarded_at`: when the seller's counter-notice was sent on to the claimant;
 *   `restore_after`: 10 business days later, from when the operator may restore what was taken down.
 * The reporter's language, for the decision's email, is `reporter_locale` (migration 0037).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table reports add column seller_notified_at timestamptz;
    alter table reports add column seller_notice_skipped boolean not null default false;
    alter table reports add column counter_notice_forwarded_at timestamptz;
    alter table reports add column restore_after timestamptz;
    create index reports_seller_notified_idx on reports (seller_id, seller_notified_at desc)
      where seller_notified_at is not null;
    create index reports_restore_after_idx on reports (restore_after) where restore_after is not null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index reports_restore_after_idx;
    drop index reports_seller_notified_idx;
    alter table reports drop column restore_after;
    alter table reports drop column counter_notice_forwarded_at;
    alter table reports drop column seller_notice_skipped;
    alter table reports drop column seller_notified_at;
  `.execute(db);
}
