import { EventEmitter } from "node:events";
import type pg from "pg";
import type { RealtimeEvent } from "../../../contracts/realtime";

type Listener = (event: RealtimeEvent) => void;

/** Fans events for a user out to every open browser connection of that user, on any app instance. */
export interface EventBus {
  publish(userId: string, event: RealtimeEvent): Promise<void>;
  subscribe(userId: string, listener: Listener): () => void;
  close(): Promise<void>;
}

/** One process: an EventEmitter. Used with embedded PGlite, where there is only one instance. */
export function inProcessEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(userId, event) {
      emitter.emit(userId, event);
    },
    subscribe(userId, listener) {
      emitter.on(userId, listener);
      return () => emitter.off(userId, listener);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

const CHANNEL = "flatfee_events";

/**
 * Several instances on one PostgreSQL: publish is a NOTIFY, and each instance LISTENs on one
 * dedicated connection and hands events to its local subscribers. A lost listening connection is
 * replaced (after 1 s, then up to every 30 s) until the bus is closed.
 */
export async function postgresEventBus(pool: pg.Pool): Promise<EventBus> {
  const local = inProcessEventBus();
  let listener: pg.PoolClient | undefined;
  let closed = false;
  let retryMs = 1000;

  const listen = async (): Promise<void> => {
    const client = await pool.connect();
    client.on("notification", (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      const { userId, event } = JSON.parse(message.payload) as { userId: string; event: RealtimeEvent };
      void local.publish(userId, event);
    });
    client.on("error", () => {
      client.release(true);
      if (listener === client) listener = undefined;
      scheduleReconnect();
    });
    await client.query(`listen ${CHANNEL}`);
    listener = client;
    retryMs = 1000;
  };
  const scheduleReconnect = () => {
    if (closed) return;
    setTimeout(() => void listen().catch(scheduleReconnect), retryMs).unref();
    retryMs = Math.min(retryMs * 2, 30_000);
  };

  await listen();
  return {
    async publish(userId, event) {
      await pool.query("select pg_notify($1, $2)", [CHANNEL, JSON.stringify({ userId, event })]);
    },
    subscribe: local.subscribe,
    async close() {
      closed = true;
      // Destroyed, not returned to the pool: a connection that was listening is not reused.
      listener?.release(true);
      listener = undefined;
      await local.close();
    },
  };
}
