import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- The customers search (features/audience/customers.ts). A substring of 3+ characters is a LIKE
    -- '%term%', which a trigram index answers from the few rows holding the term's trigrams instead of
    -- reading every customer of the seller (emails are lower-case, so no lower() in the index). PGlite
    -- opens every database with the extension loaded (db/embedded.ts).
    create extension if not exists pg_trgm;
    create index customers_email_trgm_idx on customers using gin (email gin_trgm_ops);
    -- 1-2 characters have no trigram: they match the start of the email, a range of this index
    -- (text_pattern_ops compares bytes, so a LIKE 'ab%' is one range whatever the database's collation).
    create index customers_seller_email_prefix_idx on customers (seller_id, email text_pattern_ops);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index customers_seller_email_prefix_idx;
    drop index customers_email_trgm_idx;
  `.execute(db);
}
