import { existsSync, mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Kysely, Migrator, sql } from "kysely";
import type pg from "pg";
import type { Logger } from "pino";
import { migrations } from "./migrations";
import { type Notifications, pgliteNotifications } from "./notifications";
import { type ConnectionUsage, PGliteDialect } from "./pglite-dialect";
import type { DB } from "./schema";

export type Database = Kysely<DB>;

export type DatabaseTarget =
  | { kind: "postgres"; url: string; preparedStatements?: boolean }
  | { kind: "pglite"; directory: string }
  | { kind: "pglite-memory" };

export interface DatabaseHandle {
  db: Database;
  target: DatabaseTarget["kind"];
  /** Present on PostgreSQL only: a pool other adapters can share. */
  pool?: pg.Pool;
  /** LISTEN/NOTIFY: what the job queue and the event bus hear committed changes by. */
  notifications: Notifications;
  /** The connections in use, idle and waited for, at this moment (/metrics). */
  connectionUsage: () => ConnectionUsage;
  /**
   * PGlite only: the whole data directory as one uncompressed tar, taken between two statements (PGlite
   * runs one at a time), so it holds exactly the transactions committed before it: what a backup keeps.
   */
  dumpEmbedded?: () => Promise<Blob>;
  close(): Promise<void>;
}

export type { ConnectionUsage };

/**
 * The embedded database's buffer pool. PostgreSQL's default, 128 MB, is allocated and cleared at every
 * open: a fifth of PGlite's start (bench/README.md, cold start). An embedded database is small and its
 * files stay in the OS cache, so a quarter of that is plenty.
 */
export const EMBEDDED_SHARED_BUFFERS = "32MB";

export async function openDatabase(
  target: DatabaseTarget,
  log: Pick<Logger, "warn">,
  /** A PGlite data directory tarball to start a new embedded database from (scripts/make-database-template.ts). */
  pgliteTemplate?: string,
): Promise<DatabaseHandle> {
  // Only the driver in use is loaded: pg for PostgreSQL, PGlite for the embedded database.
  if (target.kind === "postgres") return (await import("./postgres")).openPostgres(target, log);
  const [{ PGlite }, { openEmbedded }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("./embedded"),
  ]);
  if (target.kind === "pglite") mkdirSync(target.directory, { recursive: true });
  const pglite = openEmbedded(target.kind === "pglite" ? target.directory : undefined, {
    parsers: { 20: (value: string) => Number.parseInt(value, 10) },
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
    ...(target.kind === "pglite"
      ? await startingFromTemplate(target.directory, pgliteTemplate)
      : await templateData(pgliteTemplate)),
  });
  await pglite.waitReady;
  const dialect = new PGliteDialect(pglite);
  const db = new Kysely<DB>({ dialect });
  return {
    db,
    target: target.kind,
    notifications: pgliteNotifications(pglite),
    connectionUsage: () => dialect.usage(),
    dumpEmbedded: async () => pglite.dumpDataDir("none"),
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
