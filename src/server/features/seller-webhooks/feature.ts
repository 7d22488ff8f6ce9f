import type { Feature } from "../feature";
import { deliverWebhookJobHandler } from "./deliver-webhooks";
import { registerSellerWebhookRoutes } from "./routes";

/** Sellers' webhook endpoints and the delivery job. */
export const sellerWebhooksFeature: Feature = {
  name: "seller-webhooks",
  register: ({ server, db, auth, now, webhookPolicy, webhookResolver, jobs }) => {
    registerSellerWebhookRoutes(server, { db, auth, now, policy: webhookPolicy });
    jobs.register(
      deliverWebhookJobHandler({
        db,
        policy: webhookPolicy,
        ...(webhookResolver ? { resolve: webhookResolver } : {}),
      }),
    );
  },
};
