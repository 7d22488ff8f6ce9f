import { type Database, inTransaction } from "../../db/database";
import type { OrderChanges } from "../order-lifecycle";

/**
 * Marks a completed order refunded (its downloads stop at once) and applies what else changes with a
 * refund (the seller's totals, roll-ups, webhooks: OrderChanges), in one transaction. Returns the order when this call changed it, undefined otherwise.
 */
export function markRefunded(
  db: Database,
  orderChanges: OrderChanges,
  where: { orderId: string } | { accountId: string; paymentIntentId: string },
  now: Date,
) {
  return inTransaction(db, async (trx) => {
    let query = trx
      .updateTable("orders")
      .set({ status: "refunded", refunded_at: now })
      .where("status", "=", "completed");
    query =
      "orderId" in where
        ? query.where("id", "=", where.orderId)
        : query
            .where("stripe_account_id", "=", where.accountId)
            .where("payment_intent_id", "=", where.paymentIntentId);
    const order = await query
      .returning([
        "id",
        "seller_id",
        "product_id",
        "customer_email",
        "product_title",
        "amount_cents",
        "currency",
        "settlement_cents",
      ])
      .executeTakeFirst();
    if (order)
      await orderChanges.refunded(trx, {
        orderId: order.id,
        sellerId: order.seller_id,
        productId: order.product_id,
        email: order.customer_email,
        amountCents: order.settlement_cents,
        at: now,
      });
    return order;
  });
}
