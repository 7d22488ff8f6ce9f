import { randomBytes } from "node:crypto";
import pg from "pg";
import { type DatabaseHandle, migrateToLatest, openDatabase } from "../../../src/server/db/database";
import { testDatabaseTemplate } from "../../support/database-template";

const silentLog = { warn() {} };

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a brand-new
 * database on the PostgreSQL server named by TEST_DATABASE_URL (dropped again on close).
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return openEmbeddedTestDatabase();
  const fresh = await createFreshDatabase(serverUrl);
  const handle = await openDatabase({ kind: "postgres", url: fresh.url }, silentLog);
  await migrateToLatest(handle.db);
  return {
    ...handle,
    async close() {
      await handle.close();
      await fresh.drop();
    },
  };
}

/**
 * A fresh, migrated in-memory PGlite whatever TEST_DATABASE_URL says: for what only the embedded
 * database does (its backups, its one connection's metrics).
 */
export async function openEmbeddedTestDatabase(): Promise<DatabaseHandle> {
  const handle = await openDatabase({ kind: "pglite-memory" }, silentLog, testDatabaseTemplate());
  await migrateToLatest(handle.db);
  return handle;
}

/** An empty database of its own on the PostgreSQL server at `serverUrl`, and a way to drop it. */
export async function createFreshDatabase(
  serverUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `flatfee_test_${randomBytes(6).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
