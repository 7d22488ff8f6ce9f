import { type Kysely, sql } from "kysely";

/**
 * Imported licence keys kept as their platform wrote them (docs/store-import.md): Payhip's `WTKP4-66NL5-…`,
 * Lemon Squeezy's UUIDs. The key's check took only this instance's own shape (4 groups of 8), so a run
 * writing such a key failed whole; it now takes what verification looks up (licenses/verify-license.ts
 * `keyToLookUp`): a letter or digit, then 7 to 99 letters, digits or dashes. This instance's keys still
 * match it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table license_keys drop constraint license_keys_key_check;
    alter table license_keys add constraint license_keys_key_check
      check (key ~ '^[A-Za-z0-9][A-Za-z0-9-]{7,99}$');
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Keys imported as their platform wrote them go with the wider check.
  await sql`
    delete from license_keys where key !~ '^[0-9A-Z]{8}(-[0-9A-Z]{8}){3}$';
    alter table license_keys drop constraint license_keys_key_check;
    alter table license_keys add constraint license_keys_key_check
      check (key ~ '^[0-9A-Z]{8}(-[0-9A-Z]{8}){3}$');
  `.execute(db);
}
