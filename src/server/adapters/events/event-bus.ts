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
 * dedicated connection and hands events to its local subscribers.
 */
export async function postgresEventBus(pool: pg.Pool): Promise<EventBus> {
  const local = inProcessEventBus();
  const listener = await pool.connect();
  listener.on("notification", (message) => {
    if (message.channel !== CHANNEL || !message.payload) return;
    const { userId, event } = JSON.parse(message.payload) as { userId: string; event: RealtimeEvent };
    void local.publish(userId, event);
  });
  await listener.query(`listen ${CHANNEL}`);
  return {
    async publish(userId, event) {
      await pool.query("select pg_notify($1, $2)", [CHANNEL, JSON.stringify({ userId, event })]);
    },
    subscribe: local.subscribe,
    async close() {
      await listener.query(`unlisten ${CHANNEL}`).catch(() => {});
      listener.release();
      await local.close();
    },
  };
}
