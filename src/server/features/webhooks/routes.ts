import type { FastifyInstance, FastifyRequest } from "fastify";
import Stripe from "stripe";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Database } from "../../db/database";
import { badRequest } from "../../http/errors";
import { type EventHandler, processStripeEvent } from "./process-event";

export interface WebhookDeps {
  db: Database;
  events: EventBus;
  platformSecret: string;
  connectSecret: string;
  platformHandlers: Record<string, EventHandler>;
  connectHandlers: Record<string, EventHandler>;
  now: () => Date;
}

/**
 * /api/webhooks/stripe (platform) and /api/webhooks/stripe-connect (connected accounts): the
 * signature is checked on the raw body; a failing handler answers 500 so Stripe retries.
 */
export function registerWebhookRoutes(app: FastifyInstance, deps: WebhookDeps): void {
  app.register(async (scope) => {
    // The signature covers the raw bytes: they are kept as sent, and only Stripe-signed JSON is ever parsed.
    scope.removeContentTypeParser("application/json");
    scope.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) =>
      done(null, body),
    );

    const receive =
      (secret: string, handlers: Record<string, EventHandler>) => async (request: FastifyRequest) => {
        const event = verifiedEvent(request, secret);
        await processStripeEvent(deps, event, handlers, deps.now);
        return { received: true };
      };

    scope.post("/api/webhooks/stripe", receive(deps.platformSecret, deps.platformHandlers));
    scope.post("/api/webhooks/stripe-connect", receive(deps.connectSecret, deps.connectHandlers));
  });
}

function verifiedEvent(request: FastifyRequest, secret: string): Stripe.Event {
  const signature = request.headers["stripe-signature"];
  if (typeof signature !== "string" || !Buffer.isBuffer(request.body)) {
    throw badRequest("Missing Stripe signature", "invalid_signature");
  }
  try {
    return Stripe.webhooks.constructEvent(request.body, signature, secret);
  } catch {
    throw badRequest("Invalid Stripe signature", "invalid_signature");
  }
}
