import type Stripe from "stripe";
import type { OrderChanges } from "../../order-lifecycle";
import type { EventHandler } from "../../webhooks";
import { markRefunded } from "../mark-refunded";

/**
 * Connect `charge.refunded`: a refund made anywhere (our dashboard or the seller's Stripe
 * dashboard) revokes the order. A partial refund keeps the purchase: only a full one revokes it.
 */
export const chargeRefundedHandler =
  (orderChanges: OrderChanges): EventHandler =>
  async (event) => {
    const charge = event.data.object as Stripe.Charge;
    const paymentIntentId =
      typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
    const account = event.account;
    if (!account || !paymentIntentId || !charge.refunded) return undefined;
    return async (trx, announce, now) => {
      const order = await markRefunded(trx, orderChanges, { accountId: account, paymentIntentId }, now);
      if (order) announce(order.seller_id, { type: "sales.changed" });
    };
  };
