import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import type { Logger } from "pino";

/**
 * PostgreSQL's LISTEN/NOTIFY on either database. A NOTIFY sent inside a transaction is delivered when it
 * commits and dropped when it rolls back, which makes it the after-commit signal: the job queue wakes on
 * it, on every instance (docs/background-jobs.md).
 */
export interface Notifications {
  /** Calls `onNotify` with each payload sent on `channel`; resolves with a function that stops it. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** How many lost LISTEN connections were replaced, by channel, since start (/metrics reads it). */
  reconnects(): ReadonlyMap<string, number>;
}

/** The embedded database: one process, so PGlite's own listeners. */
export function pgliteNotifications(pglite: PGlite): Notifications {
  return {
    async listen(channel, onNotify) {
      const unlisten = await pglite.listen(channel, onNotify);
      return () => unlisten();
    },
    // One process, no connection to lose.
    reconnects: () => new Map(),
  };
}

/** How soon a lost LISTEN connection is replaced, again and again while the database is down. */
const RELISTEN_MS = 500;

/**
 * PostgreSQL: one dedicated connection per listener. A lost one (a restart, a failover) is replaced every
 * half second until it works again or the listener is stopped, so notifications resume with the database.
 */
export function postgresNotifications(
  pool: pg.Pool,
  log: Pick<Logger, "warn"> & Partial<Pick<Logger, "info">>,
): Notifications {
  const reconnects = new Map<string, number>();
  return {
    reconnects: () => reconnects,
    async listen(channel, onNotify) {
      let current: { client: pg.PoolClient; destroy: () => boolean } | undefined;
      let retryTimer: NodeJS.Timeout | undefined;
      let stopped = false;

      const connect = async (): Promise<void> => {
        const client = await pool.connect();
        // Destroyed, not returned to the pool: a connection that was listening is not reused. Only once:
        // a dying connection reports itself more than once (the server's FATAL, then the socket's end),
        // also after stop() destroyed it, and pg refuses a second release.
        let destroyed = false;
        const destroy = () => {
          if (destroyed) return false;
          destroyed = true;
          client.release(true);
          return true;
        };
        const replace = (error: unknown) => {
          if (!destroy()) return;
          if (current?.client === client) current = undefined;
          log.warn(
            { err: error, channel },
            "notifications paused: the LISTEN connection was lost, reconnecting",
          );
          scheduleConnect();
        };
        client.on("error", replace);
        client.on("notification", (message) => {
          if (message.channel === channel) onNotify(message.payload ?? "");
        });
        try {
          await client.query(`listen ${channel}`);
        } catch (error) {
          return replace(error);
        }
        if (stopped) {
          destroy();
          return;
        }
        current = { client, destroy };
      };
      const scheduleConnect = () => {
        if (stopped) return;
        retryTimer = setTimeout(() => {
          connect().then(
            () => {
              if (!current) return;
              reconnects.set(channel, (reconnects.get(channel) ?? 0) + 1);
              log.info?.({ channel }, "notifications resumed: listening again");
            },
            // Still unreachable: try again (logged once, when the connection was lost).
            () => scheduleConnect(),
          );
        }, RELISTEN_MS);
        retryTimer.unref();
      };

      await connect();
      return async () => {
        stopped = true;
        clearTimeout(retryTimer);
        current?.destroy();
        current = undefined;
      };
    },
  };
}
