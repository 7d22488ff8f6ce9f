import { EventEmitter } from "node:events";
import type pg from "pg";
import type { Logger } from "pino";
import type { RealtimeEvent } from "../../../contracts/realtime";
import type { Notifications } from "../../db/notifications";

type Listener = (event: RealtimeEvent) => void;

/**
 * Server-side only, never sent to a browser: what buyers see of this seller changed (a product, its
 * stock, the store's settings), so every instance drops its copies of their public pages.
 */
export type PublicPagesChanged = { type: "public-pages.changed" };
/**
 * Announced by a change to what buyers see of a seller (a product created, edited, deleted; its stock
 * taken or given back; the store's settings). Plan standing, onboarding, sales and refunds need not
 * announce it: any event for a seller drops their pages (see PublicPageCache).
 */
export const PUBLIC_PAGES_CHANGED: PublicPagesChanged = { type: "public-pages.changed" };
export type BusEvent = RealtimeEvent | PublicPagesChanged;

/** Fans events for a user out to every open browser connection of that user, on any app instance. */
export interface EventBus {
  /** Never rejects: the change an event announces is already saved, so a failed live update is logged. */
  publish(userId: string, event: BusEvent): Promise<void>;
  /** The events a user's browsers are told about. */
  subscribe(userId: string, listener: Listener): () => void;
  /** Every event, for every user, server-only ones included: what the server's own caches listen to. */
  subscribeAll(listener: (userId: string, event: BusEvent) => void): () => void;
  close(): Promise<void>;
}

const ALL_EVENTS = Symbol("all events");
const serverOnly = (event: BusEvent): event is PublicPagesChanged => event.type === "public-pages.changed";

/** One process: an EventEmitter. Used with embedded PGlite, where there is only one instance. */
export function inProcessEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(userId, event) {
      if (!serverOnly(event)) emitter.emit(userId, event);
      emitter.emit(ALL_EVENTS, userId, event);
    },
    subscribe(userId, listener) {
      emitter.on(userId, listener);
      return () => emitter.off(userId, listener);
    },
    subscribeAll(listener) {
      emitter.on(ALL_EVENTS, listener);
      return () => emitter.off(ALL_EVENTS, listener);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

const CHANNEL = "flatfee_events";

/**
 * Several instances on one PostgreSQL: publish is a NOTIFY, and each instance LISTENs (one dedicated
 * connection, replaced while the database is down: db/notifications.ts) and hands events to its local
 * subscribers, so live updates come back as soon as the database does. The publishing instance's own
 * caches hear an event at once, before its NOTIFY comes back, so a seller reloading what they just
 * changed sees it.
 */
export async function postgresEventBus(
  pool: pg.Pool,
  notifications: Notifications,
  log: Pick<Logger, "warn">,
): Promise<EventBus> {
  const local = inProcessEventBus();
  const caches = inProcessEventBus();
  const unlisten = await notifications.listen(CHANNEL, (payload) => {
    if (!payload) return;
    const { userId, event } = JSON.parse(payload) as { userId: string; event: BusEvent };
    void local.publish(userId, event);
    void caches.publish(userId, event);
  });
  return {
    async publish(userId, event) {
      await caches.publish(userId, event);
      // The change an event announces is already saved; a live update that cannot be sent is only logged.
      await pool
        .query("select pg_notify($1, $2)", [CHANNEL, JSON.stringify({ userId, event })])
        .catch((error: unknown) => log.warn({ err: error, userId }, "live update not sent"));
    },
    subscribe: local.subscribe,
    subscribeAll: caches.subscribeAll,
    async close() {
      await unlisten();
      await local.close();
      await caches.close();
    },
  };
}
