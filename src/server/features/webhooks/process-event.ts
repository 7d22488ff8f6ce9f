import type Stripe from "stripe";
import { type Announce, type ChangeDeps, commitChange } from "../../adapters/events/commit-change";
import type { Database } from "../../db/database";

/**
 * The database work of an event, run inside its transaction; `announce` declares what browsers and caches
 * hear once it commits. `now` is the app's clock, as every other rule reads it (a download window, a
 * refund's time), never the wall clock.
 */
export type ApplyEvent = (trx: Database, announce: Announce, now: Date) => Promise<void>;

/**
 * Handles one event type: first reads what it needs from Stripe (outside any transaction, so no
 * database connection waits on Stripe), then answers the database work to apply, if any.
 */
export type EventHandler = (event: Stripe.Event) => Promise<ApplyEvent | undefined>;

/**
 * Adds a room's handlers to a Stripe event table (`stripeEvents.platform` or `.connect`). A type another
 * room already handles keeps both: each reads what it needs from Stripe in turn, then their database work
 * runs in order in the event's one transaction (so `charge.dispute.created` ends a membership's access and
 * suspends a one-time sale's downloads, each room caring only for its own orders).
 */
export function addStripeEventHandlers(
  table: Record<string, EventHandler>,
  handlers: Record<string, EventHandler>,
): void {
  for (const [type, handler] of Object.entries(handlers)) {
    const existing = table[type];
    table[type] = existing ? bothHandlers(existing, handler) : handler;
  }
}

function bothHandlers(first: EventHandler, second: EventHandler): EventHandler {
  return async (event) => {
    const applyFirst = await first(event);
    const applySecond = await second(event);
    if (!applyFirst || !applySecond) return applyFirst ?? applySecond;
    return async (trx, announce, now) => {
      await applyFirst(trx, announce, now);
      await applySecond(trx, announce, now);
    };
  };
}

/**
 * Applies an event exactly once: its id is recorded in `stripe_events` in the same transaction as
 * its effects, so a redelivery finds the id and does nothing, and a failure rolls back both
 * (the sender gets a 5xx and retries).
 */
export async function processStripeEvent(
  deps: ChangeDeps,
  event: Stripe.Event,
  handlers: Partial<Record<string, EventHandler>>,
  now: () => Date,
): Promise<{ applied: boolean }> {
  const handler = handlers[event.type];
  // A redelivery ends here, without asking Stripe anything.
  const seen = await deps.db
    .selectFrom("stripe_events")
    .select("id")
    .where("id", "=", event.id)
    .executeTakeFirst();
  if (seen) return { applied: false };
  const apply = await handler?.(event);
  const applied = await commitChange(deps, async (trx, announce) => {
    const inserted = await trx
      .insertInto("stripe_events")
      .values({ id: event.id, type: event.type, account: event.account ?? null })
      .onConflict((conflict) => conflict.column("id").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!inserted) return false;
    await apply?.(trx, announce, now());
    return true;
  });
  return { applied };
}
