import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Covers: the responsive WebP sizes made at upload, [{ key, width, height }]. Every size planned is
    -- recorded with the claim, before anything is written, so cleanup finds each one; once rendered,
    -- only the sizes made remain.
    alter table uploads add column cover_variants jsonb;
    -- The same sizes as public addresses, [{ url, width, height }], copied when the product is created.
    -- Null for covers made before this migration: they have the Open Graph image and a thumbnail only.
    alter table products add column cover_variants jsonb;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table products drop column cover_variants;
    alter table uploads drop column cover_variants;
  `.execute(db);
}
