import { sql } from "kysely";
import type { Database } from "../../db/database";

/**
 * A code's uses are held and counted like units of stock: a checkout holds one (taken with one
 * conditional update, so a code with 5 uses left never makes a 6th checkout), payment counts it, and a
 * checkout that ends unpaid gives it back. Each is called inside the transaction that changes the
 * checkout's state, with the checkout row locked, so each happens once per checkout.
 */
export async function holdCodeUse(trx: Database, codeId: string): Promise<boolean> {
  const held = await trx
    .updateTable("discount_codes")
    .set({ uses_reserved: sql`uses_reserved + 1` })
    .where("id", "=", codeId)
    .where(sql<boolean>`(max_uses is null or uses_reserved + uses_used < max_uses)`)
    .returning("id")
    .executeTakeFirst();
  return Boolean(held);
}

/** An open checkout ended unpaid (expired, never made, replaced): its use goes back. */
export async function releaseCodeUse(trx: Database, codeId: string): Promise<void> {
  await trx
    .updateTable("discount_codes")
    .set({ uses_reserved: sql`greatest(uses_reserved - 1, 0)` })
    .where("id", "=", codeId)
    .execute();
}

/**
 * A checkout with the code was paid. `held`: its use is still held (the checkout was open), so it
 * moves from held to used, or back when the order could not be delivered (refunded at once: not a use).
 * A checkout that had already given its use back (Stripe said expired, then paid) is counted anyway:
 * the buyer paid the price the checkout offered, so the order stands even past the code's limit.
 */
export async function countPaidCodeUse(
  trx: Database,
  codeId: string,
  { held, delivered }: { held: boolean; delivered: boolean },
): Promise<void> {
  if (!held && !delivered) return;
  await trx
    .updateTable("discount_codes")
    .set({
      ...(held ? { uses_reserved: sql`greatest(uses_reserved - 1, 0)` } : {}),
      ...(delivered ? { uses_used: sql`uses_used + 1` } : {}),
    })
    .where("id", "=", codeId)
    .execute();
}
