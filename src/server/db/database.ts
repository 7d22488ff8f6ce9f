import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, Migrator, PostgresDialect } from "kysely";
import pg from "pg";
import { migrations } from "./migrations";
import { PGliteDialect } from "./pglite-dialect";
import type { DB } from "./schema";

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

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    // An idle connection that dies (a Postgres restart, a failover) is dropped and replaced by the
    // pool; without a listener its error would crash the process. Queries report their own errors.
    pool.on("error", (error) => console.warn(`PostgreSQL idle connection lost: ${error.message}`));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
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
