import { type Kysely, sql } from "kysely";

/**
 * A store that moved (docs/store-import.md, "When the store has moved"): the address of its new store,
 * which its store and product pages here redirect to. Null: it has not moved.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table profiles add column moved_to text
      check (moved_to is null or (moved_to ~ '^https?://' and length(moved_to) <= 500));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table profiles drop column moved_to;`.execute(db);
}
