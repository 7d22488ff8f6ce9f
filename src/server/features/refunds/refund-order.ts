import Stripe from "stripe";
import { IMPORT_PLATFORM_NAMES, type ImportPlatformName } from "../../../contracts/store-import";
import { commitChange } from "../../adapters/events/commit-change";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Outbox } from "../../adapters/mail/outbox";
import type { Database } from "../../db/database";
import { AppError, notFound } from "../../http/errors";
import type { OrderChanges } from "../order-lifecycle";
import { refundEmail } from "../orders";
import { markRefunded } from "./mark-refunded";

export interface RefundDeps {
  db: Database;
  stripe: Stripe;
  outbox: Outbox;
  events: EventBus;
  orderChanges: OrderChanges;
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
  if (order.imported_from)
    throw new AppError(
      "not_refundable",
      409,
      `This order was paid on ${IMPORT_PLATFORM_NAMES[order.imported_from as ImportPlatformName] ?? order.imported_from}. Refund it there.`,
    );
  if (!order.payment_intent_id)
    throw new AppError("not_refundable", 409, "This order has no payment to refund.");
  await deps.stripe.refunds
    .create(
      { payment_intent: order.payment_intent_id },
      { stripeAccount: order.stripe_account_id, idempotencyKey: `refund-${order.id}` },
    )
    .catch((error: unknown) => {
      // Refunded in the Stripe dashboard already (its charge.refunded may still be on its way): same outcome.
      if (error instanceof Stripe.errors.StripeError && error.code === "charge_already_refunded") return;
      if (error instanceof Stripe.errors.StripeError) {
        throw new AppError("refund_refused", 409, `Stripe refused the refund: ${error.message}`);
      }
      throw error;
    });
  // Revoked, the buyer's email queued and the seller's sales told, in one change.
  await commitChange(deps, async (trx, announce) => {
    const refunded = await markRefunded(trx, deps.orderChanges, { orderId: order.id }, now);
    if (!refunded) return;
    await deps.outbox.enqueue(
      refundEmail(
        order.customer_email,
        order.product_title,
        order.amount_cents,
        order.currency,
        order.buyer_locale,
      ),
      trx,
    );
    announce(sellerId, { type: "sales.changed" });
  });
}
