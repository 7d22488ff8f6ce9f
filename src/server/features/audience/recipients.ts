import { sql } from "kysely";
import type { Database } from "../../db/database";
import { notUnsubscribed } from "./unsubscribe";

/** Whose buyers an email goes to: all of the seller's, or one product's. */
export interface Audience {
  audience: "all" | "product";
  productId: string | null;
}

/**
 * The buyers an email reaches, in email order after `after`: buyers with an order that is not
 * refunded (of the product, for a product's audience) who have not unsubscribed from the seller.
 * Read from the roll-ups, on their primary keys.
 */
function recipientsQuery(db: Database, sellerId: string, audience: Audience, after: string | null) {
  if (audience.audience === "all") {
    let query = db
      .selectFrom("customers as r")
      .select("r.email")
      .where("r.seller_id", "=", sellerId)
      .where("r.completed_count", ">", 0);
    if (after !== null) query = query.where("r.email", ">", after);
    return query;
  }
  let query = db
    .selectFrom("customer_products as r")
    .select("r.email")
    // A product deleted since (product_id null) has no buyers left to reach.
    .where("r.product_id", "=", audience.productId ?? "")
    .where("r.seller_id", "=", sellerId)
    .where("r.completed_count", ">", 0);
  if (after !== null) query = query.where("r.email", ">", after);
  return query;
}

function reachable(db: Database, sellerId: string, audience: Audience, after: string | null) {
  return db
    .selectFrom(recipientsQuery(db, sellerId, audience, after).as("r"))
    .select("r.email")
    .where(notUnsubscribed(sellerId, sql.ref<string>("r.email")));
}

/** The next `limit` recipients after `after`, in email order. */
export function recipientBatch(
  db: Database,
  sellerId: string,
  audience: Audience,
  after: string | null,
  limit: number,
): Promise<Array<{ email: string }>> {
  return reachable(db, sellerId, audience, after).orderBy("r.email").limit(limit).execute();
}

export async function countRecipients(db: Database, sellerId: string, audience: Audience): Promise<number> {
  const row = await db
    .selectFrom(reachable(db, sellerId, audience, null).as("reached"))
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
