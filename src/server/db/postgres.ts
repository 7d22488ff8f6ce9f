import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Logger } from "pino";
import type { DatabaseHandle, DatabaseTarget } from "./database";
import { postgresNotifications } from "./notifications";
import { PreparingClient } from "./prepared-statements";
import type { DB } from "./schema";
import { DatabaseUnavailableError } from "./unavailable";

// Postgres numeric and bigint come back as strings by default; our amounts are integer cents
// and counts fit in a JS number, so read int8 as a number.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

/** A request waits at most this long for a connection, then answers 503 instead of hanging. */
const CONNECT_TIMEOUT_MS = 5_000;

/** PostgreSQL at DATABASE_URL (openDatabase loads this module only then). */
export function openPostgres(
  target: Extract<DatabaseTarget, { kind: "postgres" }>,
  log: Pick<Logger, "warn">,
): DatabaseHandle {
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
  return {
    db,
    target: target.kind,
    pool,
    notifications: postgresNotifications(pool, log),
    connectionUsage: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => db.destroy(),
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
