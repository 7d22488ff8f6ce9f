import type { Database } from "../../db/database";

/** Marks an order refunded (its downloads stop at once). Returns the order when this call changed it. */
export async function markRefunded(
  db: Database,
  where: { orderId: string } | { accountId: string; paymentIntentId: string },
  now: Date,
) {
  let query = db
    .updateTable("orders")
    .set({ status: "refunded", refunded_at: now })
    .where("status", "=", "completed");
  query =
    "orderId" in where
      ? query.where("id", "=", where.orderId)
      : query
          .where("stripe_account_id", "=", where.accountId)
          .where("payment_intent_id", "=", where.paymentIntentId);
  return query
    .returning(["id", "seller_id", "customer_email", "product_title", "amount_cents"])
    .executeTakeFirst();
}
