import type { Feature } from "../feature";
import { registerWebhookRoutes } from "./routes";

/** Stripe's webhooks, dispatched to the handlers the features added to the context's tables. */
export const stripeWebhooksFeature: Feature = {
  name: "stripe-webhooks",
  register: ({ server, db, events, webhookSecrets, stripeEvents, now }) =>
    registerWebhookRoutes(server, {
      db,
      events,
      platformSecret: webhookSecrets.platform,
      connectSecret: webhookSecrets.connect,
      platformHandlers: stripeEvents.platform,
      connectHandlers: stripeEvents.connect,
      now,
    }),
};
