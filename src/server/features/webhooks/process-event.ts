import type Stripe from "stripe";
import type { BusEvent, EventBus } from "../../adapters/events/event-bus";
import type { Database } from "../../db/database";

/** What a handler may do inside the event's transaction, and what to publish after it commits. */
export interface EventEffects {
  /** Users whose browsers (and the server's caches) should hear about this change once it is committed. */
  notify: Array<{ userId: string; type: BusEvent["type"] }>;
}

export const noEffects = (): EventEffects => ({ notify: [] });

/**
 * The database work of an event, run inside its transaction. `now` is the app's clock, as every other
 * rule reads it (a download window, a refund's time), never the wall clock.
 */
export type ApplyEvent = (trx: Database, effects: EventEffects, now: Date) => Promise<void>;

/**
 * Handles one event type: first reads what it needs from Stripe (outside any transaction, so no
 * database connection waits on Stripe), then answers the database work to apply, if any.
 */
export type EventHandler = (event: Stripe.Event) => Promise<ApplyEvent | undefined>;

/**
 * Applies an event exactly once: its id is recorded in `stripe_events` in the same transaction as
 * its effects, so a redelivery finds the id and does nothing, and a failure rolls back both
 * (the sender gets a 5xx and retries).
 */
export async function processStripeEvent(
  db: Database,
  event: Stripe.Event,
  handlers: Partial<Record<string, EventHandler>>,
  now: () => Date,
): Promise<{ applied: boolean; effects: EventEffects }> {
  const effects = noEffects();
  const handler = handlers[event.type];
  // A redelivery ends here, without asking Stripe anything.
  const seen = await db
    .selectFrom("stripe_events")
    .select("id")
    .where("id", "=", event.id)
    .executeTakeFirst();
  if (seen) return { applied: false, effects };
  const apply = await handler?.(event);
  const applied = await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("stripe_events")
      .values({ id: event.id, type: event.type, account: event.account ?? null })
      .onConflict((conflict) => conflict.column("id").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!inserted) return false;
    await apply?.(trx, effects, now());
    return true;
  });
  return { applied, effects };
}

/**
 * Publishes the realtime events of a committed change. (Background work it queued needs nothing here:
 * the job queue hears the jobs' commit from the database, jobs/job-queue.ts.)
 */
export async function applyEffects(events: EventBus, effects: EventEffects): Promise<void> {
  for (const { userId, type } of effects.notify) await events.publish(userId, { type });
}
