import { existsSync, mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Kysely, Migrator, PostgresDialect, sql } from "kysely";
import pg from "pg";
import type { Logger } from "pino";
import { openEmbedded } from "./embedded";
import { migrations } from "./migrations";
import { PGliteDialect } from "./pglite-dialect";
import { PreparingClient } from "./prepared-statements";
import type { DB } from "./schema";
import { DatabaseUnavailableError } from "./unavailable";

export type Database = Kysely<DB>;

export type DatabaseTarget =
  | { kind: "postgres"; url: string; preparedStatements?: boolean }
  | { kind: "pglite"; directory: string }
  | { kind: "pglite-memory" };

export interface DatabaseHandle {
  db: Database;
  target: DatabaseTarget["kind"];
  /** Present on PostgreSQL only: a pool other adapters (LISTEN/NOTIFY) can share. */
  pool?: pg.Pool;
  close(): Promise<void>;
}

// Postgres numeric and bigint come back as strings by default; our amounts are integer cents
// and counts fit in a JS number, so read int8 as a number.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

/** A request waits at most this long for a connection, then answers 503 instead of hanging. */
const CONNECT_TIMEOUT_MS = 5_000;

export async function openDatabase(
  target: DatabaseTarget,
  log: Pick<Logger, "warn">,
  /** A PGlite data directory tarball to start a new embedded database from (scripts/make-database-template.ts). */
  pgliteTemplate?: string,
): Promise<DatabaseHandle> {
  if (target.kind === "postgres") {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // Off only for a connection pooler that cannot keep a connection's statements (PgBouncer before 1.21).
      ...(target.preparedStatements === false ? {} : { Client: PreparingClient }),
    });
    // A restart or failover ends every connection, idle or in use. pg reports it as an 'error' event on
    // the client, which would crash the process without a listener; the pool's own listener only covers
    // idle clients. Queries on the lost connection fail on their own, and the pool drops the client.
    pool.on("connect", (client) => {
      client.on("error", (error) => log.warn({ err: error }, "PostgreSQL connection lost"));
    });
    // Logged by the client's listener above; without a listener here the pool would rethrow it.
    pool.on("error", () => {});
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: reportingUnavailable(pool) }) });
    return { db, target: target.kind, pool, close: () => db.destroy() };
  }
  if (target.kind === "pglite") mkdirSync(target.directory, { recursive: true });
  const pglite = openEmbedded(target.kind === "pglite" ? target.directory : undefined, {
    parsers: { 20: (value: string) => Number.parseInt(value, 10) },
    ...(target.kind === "pglite"
      ? await startingFromTemplate(target.directory, pgliteTemplate)
      : await templateData(pgliteTemplate)),
  });
  await pglite.waitReady;
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    target: target.kind,
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}

/**
 * Creating a database cluster (initdb) and migrating it takes most of a first start (5-10 s); unpacking a
 * migrated cluster made at build time takes about a second. Only a directory with no database yet starts
 * from the template.
 */
async function startingFromTemplate(directory: string, template: string | undefined) {
  if (existsSync(path.join(directory, "PG_VERSION"))) return {};
  return templateData(template);
}

async function templateData(template: string | undefined) {
  if (!template || !existsSync(template)) return {};
  return { loadDataDir: new Blob([await readFile(template)]) };
}

/** The pool as Kysely sees it: a connection that cannot be made is a DatabaseUnavailableError. */
function reportingUnavailable(pool: pg.Pool) {
  return {
    connect: () =>
      pool.connect().catch((error: unknown) => {
        throw new DatabaseUnavailableError(error);
      }),
    end: () => pool.end(),
  };
}

export async function migrateToLatest(db: Database): Promise<void> {
  // Nearly every start has nothing to migrate. One read tells; the migrator would first inspect the
  // catalog and take its lock, a few hundred milliseconds on PGlite.
  if (await hasRunExactlyTheKnownMigrations(db)) return;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === "Error");
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
}

/**
 * Whether the database has run every migration this code knows and no other. Anything else (a new
 * database, a pending migration, one from newer code) is left to the migrator, which runs or refuses it.
 */
async function hasRunExactlyTheKnownMigrations(db: Database): Promise<boolean> {
  const applied = await sql<{ name: string }>`select name from kysely_migration order by name`
    .execute(db)
    .then(
      (result) => result.rows.map((row) => row.name),
      () => [], // no migration table yet: a new database
    );
  const known = Object.keys(migrations).sort();
  return applied.length === known.length && applied.every((name, index) => name === known[index]);
}

/** Runs `work` in a transaction, joining the caller's when `db` already is one. */
export function inTransaction<T>(db: Database, work: (trx: Database) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
