import { sql } from "kysely";
import { type Database, inTransaction } from "../../db/database";

/** Takes one unit of a limited product if any is left (one conditional update: never oversells). */
export async function takeUnit(db: Database, productId: string): Promise<boolean> {
  const taken = await db
    .updateTable("products")
    .set({ quantity_available: sql`quantity_available - 1` })
    .where("id", "=", productId)
    .where("inventory_type", "=", "limited")
    .where("quantity_available", ">", 0)
    .returning("id")
    .executeTakeFirst();
  return Boolean(taken);
}

export async function giveUnitBack(db: Database, productId: string): Promise<void> {
  await db
    .updateTable("products")
    .set({ quantity_available: sql`quantity_available + 1` })
    .where("id", "=", productId)
    .where("inventory_type", "=", "limited")
    .execute();
}

/**
 * Gives a checkout's held unit back, once: only the call that moves it from held to released
 * returns the unit, so an expiry event delivered twice (or racing the janitor) adds one unit.
 */
export async function releaseReservation(db: Database, sessionId: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const released = await trx
      .updateTable("checkouts")
      .set({ reservation: "released" })
      .where("stripe_session_id", "=", sessionId)
      .where("reservation", "=", "held")
      .returning("product_id")
      .executeTakeFirst();
    if (released?.product_id) await giveUnitBack(trx, released.product_id);
    return Boolean(released);
  });
}

/** Safety net for expiry events that never arrive: release holds well past their session's expiry. */
export async function releaseStaleReservations(db: Database, now: Date): Promise<number> {
  const stale = await db
    .selectFrom("checkouts")
    .select("stripe_session_id")
    .where("reservation", "=", "held")
    .where("expires_at", "<", new Date(now.getTime() - 15 * 60_000))
    .limit(500)
    .execute();
  let released = 0;
  for (const { stripe_session_id } of stale) if (await releaseReservation(db, stripe_session_id)) released++;
  return released;
}
