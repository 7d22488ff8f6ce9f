import { type Kysely, sql } from "kysely";

/**
 * The buyer's language travels with the purchase (docs/i18n.md, "Emails"): the checkout records the
 * language the buyer's request asked for, its order takes it, and a membership takes its first
 * checkout's, so receipts, renewal and lifecycle emails speak it. Rows made before spoke English.
 * The languages are contracts/i18n/locales.ts' LOCALES; adding one changes this check in a migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table checkouts add column buyer_locale text not null default 'en'
      constraint checkouts_buyer_locale_check check (buyer_locale in ('en', 'es', 'de', 'fr', 'pt-BR', 'ja'));
    alter table orders add column buyer_locale text not null default 'en'
      constraint orders_buyer_locale_check check (buyer_locale in ('en', 'es', 'de', 'fr', 'pt-BR', 'ja'));
    alter table memberships add column buyer_locale text not null default 'en'
      constraint memberships_buyer_locale_check check (buyer_locale in ('en', 'es', 'de', 'fr', 'pt-BR', 'ja'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table memberships drop column buyer_locale;
    alter table orders drop column buyer_locale;
    alter table checkouts drop column buyer_locale;
  `.execute(db);
}
