import type Stripe from "stripe";
import type { Outbox } from "../../adapters/mail/outbox";
import type { Database } from "../../db/database";
import { AppError, notFound } from "../../http/errors";
import { refundEmail } from "../orders/emails";
import { markRefunded } from "./mark-refunded";

export interface RefundDeps {
  db: Database;
  stripe: Stripe;
  outbox: Outbox;
}

/**
 * The seller refunds one of their own orders in full, through Stripe on their own account. The
 * order is revoked as soon as Stripe accepts; `charge.refunded` arriving later changes nothing.
 */
export async function refundOrder(deps: RefundDeps, sellerId: string, orderId: string, now: Date) {
  const order = await deps.db
    .selectFrom("orders")
    .selectAll()
    .where("id", "=", orderId)
    .where("seller_id", "=", sellerId)
    .executeTakeFirst();
  if (!order) throw notFound("Order not found");
  if (order.status === "refunded")
    throw new AppError("already_refunded", 409, "This order is already refunded.");
  if (!order.payment_intent_id)
    throw new AppError("not_refundable", 409, "This order has no payment to refund.");
  await deps.stripe.refunds.create(
    { payment_intent: order.payment_intent_id },
    { stripeAccount: order.stripe_account_id, idempotencyKey: `refund-${order.id}` },
  );
  const refunded = await markRefunded(deps.db, { orderId: order.id }, now);
  if (refunded)
    await deps.outbox.enqueue(refundEmail(order.customer_email, order.product_title, order.amount_cents));
}
