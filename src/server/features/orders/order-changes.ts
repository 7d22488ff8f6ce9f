import type { Database } from "../../db/database";
import { countSaleInAnalytics, takeBackSaleFromAnalytics } from "../analytics/sale-attribution";
import { rollUpCustomerOrder, rollUpCustomerRefund } from "../audience/customer-rollup";
import { issueLicenseKey } from "../licenses/issue-license-key";
import { queuePdfStamps } from "../pdf-stamps/stamp-queue";
import { queueSaleCompletedWebhooks, queueSaleRefundedWebhooks } from "../seller-webhooks/queue-events";
import { countSale } from "./sales-totals";

/**
 * What else changes, in the same transaction, when an order is created or refunded: the seller's
 * totals today, and every feature that keeps something per sale (roll-ups, keys, queued deliveries).
 * Each feature adds its one step here, so the order lifecycle stays one list to read and no caller
 * of fulfilment or refunds has to know about them.
 */
export interface CreatedOrder {
  orderId: string;
  sellerId: string;
  productId: string | null;
  checkoutId: string;
  email: string;
  amountCents: number;
  /** False when the unit could not be delivered and the order was refunded at once. */
  delivered: boolean;
  at: Date;
}

export async function onOrderCreated(trx: Database, order: CreatedOrder): Promise<void> {
  await countSale(trx, {
    sellerId: order.sellerId,
    amountCents: order.amountCents,
    kind: order.delivered ? "new-completed" : "new-refunded",
  });
  await rollUpCustomerOrder(trx, order);
  await countSaleInAnalytics(trx, order);
  if (order.delivered) await issueLicenseKey(trx, order);
  if (order.delivered) await queuePdfStamps(trx, order);
  await queueSaleCompletedWebhooks(trx, order);
}

export interface RefundedOrder {
  orderId: string;
  sellerId: string;
  productId: string | null;
  email: string;
  amountCents: number;
  at: Date;
}

/** A completed order was refunded (by the seller here, or in Stripe's dashboard). */
export async function onOrderRefunded(trx: Database, order: RefundedOrder): Promise<void> {
  await countSale(trx, { sellerId: order.sellerId, amountCents: order.amountCents, kind: "refunded" });
  await rollUpCustomerRefund(trx, order);
  await takeBackSaleFromAnalytics(trx, order);
  await queueSaleRefundedWebhooks(trx, order);
}
