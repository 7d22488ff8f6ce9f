import { createHmac } from "node:crypto";
import { sql } from "kysely";
import type { Database } from "../../db/database";
import { findPublicSeller } from "../billing";

/** Crawlers, link unfurlers and headless browsers are not visitors. */
export const NOT_A_VISITOR =
  /bot|crawl|spider|slurp|preview|facebookexternalhit|embedly|headless|lighthouse|curl|wget|python-requests|httpclient|okhttp|go-http/i;
/** Reloads and back-and-forth within this window count once. */
export const REPEAT_VIEW_WINDOW_MS = 30 * 60 * 1000;

export interface StoreVisit {
  storeOwnerId: string;
  userAgent: string | undefined;
  ip: string;
  /** The signed-in user, if any: a seller looking at their own store is not a view. */
  viewerId: string | undefined;
  now: Date;
}

/**
 * Records a store view unless it is a bot, the owner, the same visitor again within 30 minutes, or a
 * store that is not public. Visitors are told apart by a keyed hash of IP and user agent; the IP itself
 * is never stored.
 */
export async function recordStoreView(db: Database, secret: string, visit: StoreVisit): Promise<boolean> {
  const userAgent = visit.userAgent?.slice(0, 400) ?? "";
  if (!userAgent || NOT_A_VISITOR.test(userAgent) || visit.viewerId === visit.storeOwnerId) return false;
  const visitorHash = createHmac("sha256", secret).update(`${visit.ip}\n${userAgent}`).digest("base64url");
  const recent = await db
    .selectFrom("store_views")
    .select("id")
    .where("store_owner_id", "=", visit.storeOwnerId)
    .where("visitor_hash", "=", visitorHash)
    .where("viewed_at", ">", new Date(visit.now.getTime() - REPEAT_VIEW_WINDOW_MS))
    .limit(1)
    .executeTakeFirst();
  if (recent) return false;
  // A store that is not public (or does not exist) has no page to view.
  const owner = await findPublicSeller(db, visit.storeOwnerId, visit.now);
  if (!owner?.pagesPublic) return false;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("store_views")
      .values({
        store_owner_id: visit.storeOwnerId,
        user_agent: userAgent,
        visitor_hash: visitorHash,
        viewed_at: visit.now,
      })
      .execute();
    await trx
      .insertInto("store_view_days")
      .values({ store_owner_id: visit.storeOwnerId, day: visit.now.toISOString().slice(0, 10), views: 1 })
      .onConflict((conflict) =>
        conflict.columns(["store_owner_id", "day"]).doUpdateSet({ views: sql`store_view_days.views + 1` }),
      )
      .execute();
  });
  return true;
}
