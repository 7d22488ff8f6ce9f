import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, Migrator, PostgresDialect } from "kysely";
import pg from "pg";
import type { Logger } from "pino";
import { migrations } from "./migrations";
import { PGliteDialect } from "./pglite-dialect";
import type { DB } from "./schema";
import { DatabaseUnavailableError } from "./unavailable";

export type Database = Kysely<DB>;

export type DatabaseTarget =
  | { kind: "postgres"; url: string }
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
): Promise<DatabaseHandle> {
  if (target.kind === "postgres") {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
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
  const pglite = new PGlite(target.kind === "pglite" ? target.directory : undefined, {
    parsers: { 20: (value: string) => Number.parseInt(value, 10) },
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
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === "Error");
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
}

/** Runs `work` in a transaction, joining the caller's when `db` already is one. */
export function inTransaction<T>(db: Database, work: (trx: Database) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
