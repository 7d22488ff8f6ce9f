import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../tests/api/support/test-database";
import { type DatabaseHandle, migrateToLatest } from "./database";
import { migrations } from "./migrations";

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const appliedMigrations = async () =>
  (
    await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db)
  ).rows.map((row) => row.name);

describe("migrateToLatest", () => {
  it("leaves an up-to-date database alone without asking the migrator", async () => {
    expect(await appliedMigrations()).toEqual(Object.keys(migrations).sort());
    // The migrator always makes sure its lock table exists; a start with nothing to migrate never gets there.
    await sql`drop table kysely_migration_lock`.execute(database.db);

    await migrateToLatest(database.db);

    const lockTable = await sql<{
      found: string | null;
    }>`select to_regclass('kysely_migration_lock') as found`.execute(database.db);
    expect(lockTable.rows[0]?.found).toBeNull();
    expect(await appliedMigrations()).toEqual(Object.keys(migrations).sort());
  });

  it("still refuses a database migrated by newer code", async () => {
    await sql`insert into kysely_migration (name, timestamp) values ('9999_from_newer_code', '2030-01-01T00:00:00.000Z')`.execute(
      database.db,
    );

    await expect(migrateToLatest(database.db)).rejects.toThrow(/9999_from_newer_code/);
    await sql`delete from kysely_migration where name = '9999_from_newer_code'`.execute(database.db);
  });
});
