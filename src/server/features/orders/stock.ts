import { sql } from "kysely";
import { type Database, inTransaction } from "../../db/database";
import { releaseCodeUse } from "../discounts";

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

async function giveUnitBack(db: Database, productId: string): Promise<void> {
  await db
    .updateTable("products")
    .set({ quantity_available: sql`quantity_available + 1` })
    .where("id", "=", productId)
    .where("inventory_type", "=", "limited")
    .execute();
}

/**
 * Ends a checkout that was never paid (Stripe expired its session, or never made one) and gives its
 * held unit and its discount code's use back, once: the row is locked and only an open checkout ends,
 * so an expiry event delivered twice, or racing the janitor, adds one unit and one use. Answers the
 * checkout's seller when this call ended it (their pages show the unit again), else null.
 */
export async function endUnpaidCheckout(db: Database, checkoutId: string): Promise<string | null> {
  return inTransaction(db, async (trx) => {
    const checkout = await trx
      .selectFrom("checkouts")
      .select(["seller_id", "product_id", "reservation", "discount_code_id"])
      .where("id", "=", checkoutId)
      .where("state", "=", "open")
      .forUpdate()
      .executeTakeFirst();
    if (!checkout) return null;
    const held = checkout.reservation === "held";
    await trx
      .updateTable("checkouts")
      .set({ state: "expired", ...(held ? { reservation: "released" as const } : {}) })
      .where("id", "=", checkoutId)
      .execute();
    if (held && checkout.product_id) await giveUnitBack(trx, checkout.product_id);
    if (checkout.discount_code_id) await releaseCodeUse(trx, checkout.discount_code_id);
    return checkout.seller_id;
  });
}
