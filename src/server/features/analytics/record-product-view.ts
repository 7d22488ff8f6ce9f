import { createHmac } from "node:crypto";
import type { VisitSource } from "../../../contracts/analytics";
import type { Database } from "../../db/database";
import { findPublicSeller } from "../billing";
import { NOT_A_VISITOR, REPEAT_VIEW_WINDOW_MS } from "../storefront";
import { addToRollups, utcDay } from "./rollups";

export interface ProductVisit {
  productId: string;
  userAgent: string | undefined;
  ip: string;
  /** The signed-in user, if any: a seller looking at their own product is not a view. */
  viewerId: string | undefined;
  source: VisitSource;
  now: Date;
}

/**
 * Counts a product page view with where it came from, unless it is a bot, the seller, the same visitor
 * again within 30 minutes, or a product that is not public. As for store views, visitors are told apart
 * by a keyed hash of IP and user agent; the IP is never stored, and the hash only for 30 minutes.
 */
export async function recordProductView(db: Database, secret: string, visit: ProductVisit): Promise<boolean> {
  const userAgent = visit.userAgent?.slice(0, 400) ?? "";
  if (!userAgent || NOT_A_VISITOR.test(userAgent)) return false;
  const product = await db
    .selectFrom("products")
    .select("user_id")
    .where("id", "=", visit.productId)
    .where("is_active", "=", true)
    .executeTakeFirst();
  if (!product || product.user_id === visit.viewerId) return false;
  const seller = await findPublicSeller(db, product.user_id, visit.now);
  if (!seller?.pagesPublic) return false;
  const visitorHash = createHmac("sha256", secret).update(`${visit.ip}\n${userAgent}`).digest("base64url");
  const repeatBefore = new Date(visit.now.getTime() - REPEAT_VIEW_WINDOW_MS);
  return db.transaction().execute(async (trx) => {
    // One statement decides: a first view inserts, a view after the window moves the time, a repeat does nothing.
    const counted = await trx
      .insertInto("product_view_visits")
      .values({ product_id: visit.productId, visitor_hash: visitorHash, last_viewed_at: visit.now })
      .onConflict((conflict) =>
        conflict
          .columns(["product_id", "visitor_hash"])
          .doUpdateSet({ last_viewed_at: visit.now })
          .where("product_view_visits.last_viewed_at", "<=", repeatBefore),
      )
      .returning("product_id")
      .executeTakeFirst();
    if (!counted) return false;
    await addToRollups(trx, {
      sellerId: product.user_id,
      productId: visit.productId,
      day: utcDay(visit.now),
      source: visit.source,
      views: 1,
      units: 0,
      revenueCents: 0,
    });
    return true;
  });
}

/** Visits past the repeat window decide nothing any more. */
export async function pruneProductViewVisits(db: Database, now: Date): Promise<void> {
  await db
    .deleteFrom("product_view_visits")
    .where("last_viewed_at", "<=", new Date(now.getTime() - REPEAT_VIEW_WINDOW_MS))
    .execute();
}
