import type Stripe from "stripe";
import type { EventHandler } from "../../webhooks/process-event";
import { syncSubscription } from "../sync-subscription";

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : value?.id;

/** Platform events that change a seller's plan: each re-reads the subscription and stores it. */
export function subscriptionEventHandlers(stripe: Stripe): Record<string, EventHandler> {
  const sync: (subscriptionId: string | undefined) => EventHandler =
    (subscriptionId) => async (trx, event, effects) => {
      if (!subscriptionId) return;
      const sellerId = await syncSubscription(trx, stripe, subscriptionId, new Date(event.created * 1000));
      if (sellerId) effects.notify.push({ userId: sellerId, type: "subscription.changed" });
    };

  const onSubscriptionChange: EventHandler = (trx, event, effects) =>
    sync((event.data.object as Stripe.Subscription).id)(trx, event, effects);

  return {
    "checkout.session.completed": (trx, event, effects) => {
      const session = event.data.object as Stripe.Checkout.Session;
      if (session.mode !== "subscription") return Promise.resolve();
      return sync(idOf(session.subscription))(trx, event, effects);
    },
    "customer.subscription.created": onSubscriptionChange,
    "customer.subscription.updated": onSubscriptionChange,
    "customer.subscription.deleted": onSubscriptionChange,
    "invoice.paid": (trx, event, effects) => {
      const invoice = event.data.object as Stripe.Invoice;
      return sync(idOf(invoice.parent?.subscription_details?.subscription))(trx, event, effects);
    },
    "invoice.payment_failed": (trx, event, effects) => {
      const invoice = event.data.object as Stripe.Invoice;
      return sync(idOf(invoice.parent?.subscription_details?.subscription))(trx, event, effects);
    },
  };
}
