import type Stripe from "stripe";
import type { EventHandler } from "../../webhooks";
import { storeSubscription } from "../sync-subscription";

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : value?.id;

/** Platform events that change a seller's plan: each re-reads the subscription and stores it. */
export function subscriptionEventHandlers(stripe: Stripe): Record<string, EventHandler> {
  const sync =
    (subscriptionIdOf: (event: Stripe.Event) => string | undefined): EventHandler =>
    async (event) => {
      const subscriptionId = subscriptionIdOf(event);
      if (!subscriptionId) return undefined;
      const subscription = await stripe.subscriptions.retrieve(subscriptionId);
      return async (trx, announce) => {
        const sellerId = await storeSubscription(trx, subscription, new Date(event.created * 1000));
        if (sellerId) announce(sellerId, { type: "subscription.changed" });
      };
    };

  const ofSubscription = sync((event) => (event.data.object as Stripe.Subscription).id);
  const ofInvoice = sync((event) =>
    idOf((event.data.object as Stripe.Invoice).parent?.subscription_details?.subscription),
  );
  return {
    "checkout.session.completed": sync((event) => {
      const session = event.data.object as Stripe.Checkout.Session;
      return session.mode === "subscription" ? idOf(session.subscription) : undefined;
    }),
    "customer.subscription.created": ofSubscription,
    "customer.subscription.updated": ofSubscription,
    "customer.subscription.deleted": ofSubscription,
    "invoice.paid": ofInvoice,
    "invoice.payment_failed": ofInvoice,
  };
}
