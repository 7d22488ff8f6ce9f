import { AUDIENCE_LIMITS } from "../../../contracts/audience";
import type { Database } from "../../db/database";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The limits over the last 24 hours, as the seller's page and the product card show them. */
export async function sendingAllowance(db: Database, sellerId: string, now: Date) {
  const recent = await db
    .selectFrom("broadcasts")
    .select("created_at")
    .where("seller_id", "=", sellerId)
    .where("created_at", ">", new Date(now.getTime() - DAY_MS))
    .orderBy("created_at", "asc")
    .execute();
  const remaining = Math.max(AUDIENCE_LIMITS.broadcastsPerDay - recent.length, 0);
  // The oldest of the day's sends frees its place 24 hours after it went.
  const oldest = recent[recent.length - AUDIENCE_LIMITS.broadcastsPerDay];
  const nextAvailableAt = remaining === 0 && oldest ? new Date(oldest.created_at.getTime() + DAY_MS) : null;
  return { remaining, nextAvailableAt };
}

/** When the product's last update email went, and when the next may go (one per 24 hours). */
export async function productUpdateAllowance(db: Database, productId: string, now: Date) {
  const last = await db
    .selectFrom("broadcasts")
    .select("created_at")
    .where("product_id", "=", productId)
    .where("kind", "=", "product-update")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  const nextAt = last ? new Date(last.created_at.getTime() + DAY_MS) : null;
  return { lastSentAt: last?.created_at ?? null, nextAvailableAt: nextAt && nextAt > now ? nextAt : null };
}
