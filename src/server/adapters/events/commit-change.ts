import type { Database } from "../../db/database";
import type { BusEvent, EventBus } from "./event-bus";

/** Declares an event of the change being made; it goes out once the change commits. */
export type Announce = (userId: string, event: BusEvent) => void;

export interface ChangeDeps {
  db: Database;
  events: EventBus;
}

/**
 * The one way to make a change that browsers and caches must hear about (docs/after-commit.md): `work`
 * runs in a transaction and declares its events with `announce`; they are published once it has
 * committed: never before, never for a change that rolled back, and only the last attempt's if the
 * transaction is run again. Use cases call it; routes never publish. A use case that is part of a larger
 * change takes the caller's `trx` and `announce` instead of calling it again.
 */
export async function commitChange<T>(
  deps: ChangeDeps,
  work: (trx: Database, announce: Announce) => Promise<T>,
): Promise<T> {
  if (deps.db.isTransaction) {
    throw new Error("commitChange commits its own transaction: pass the caller's trx and announce instead");
  }
  let announced: Array<{ userId: string; event: BusEvent }> = [];
  const result = await deps.db.transaction().execute((trx) => {
    announced = [];
    return work(trx, (userId, event) => announced.push({ userId, event }));
  });
  for (const { userId, event } of announced) await deps.events.publish(userId, event);
  return result;
}
