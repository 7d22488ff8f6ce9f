import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  createdWebhookEndpointSchema,
  sendExampleEventSchema,
  WEBHOOK_MESSAGES,
  webhookDeliveryListSchema,
  webhookEndpointListSchema,
  webhookSecretSchema,
} from "../../../contracts/webhooks";
import type { Database } from "../../db/database";
import { enforceRateLimit } from "../../http/rate-limit";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import type { WebhookNetworkPolicy } from "./address-policy";
import { listDeliveries, resendDelivery, sendExampleEvent } from "./deliveries";
import { deleteEndpoint, listEndpoints, registerEndpoint, revealSecret, rotateSecret } from "./endpoints";

export interface SellerWebhookRouteDeps {
  db: Database;
  auth: Auth;
  now: () => Date;
  policy: WebhookNetworkPolicy;
}

const idParams = z.object({ id: z.string().min(1).max(64) });
/** Example events and resends each make a request to the seller's server: kept to a human pace. */
const SEND_LIMIT = { name: "webhook-send:seller", limit: 30, windowSeconds: 60 };

/** The seller's webhook endpoints and their deliveries: every query is scoped to the signed-in seller. */
export function registerSellerWebhookRoutes(app: FastifyInstance, deps: SellerWebhookRouteDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/webhook-endpoints",
    { schema: { response: { 200: webhookEndpointListSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return { endpoints: await listEndpoints(deps.db, seller.id) };
    },
  );

  // The body is checked by the use case, which answers the form's messages.
  api.post(
    "/api/webhook-endpoints",
    { schema: { body: z.record(z.string(), z.unknown()), response: { 201: createdWebhookEndpointSchema } } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      const created = await registerEndpoint(deps.db, seller.id, request.body, deps.policy, deps.now());
      return reply.status(201).send(created);
    },
  );

  api.delete("/api/webhook-endpoints/:id", { schema: { params: idParams } }, async (request, reply) => {
    const seller = await requireUser(deps.auth, request);
    await deleteEndpoint(deps.db, seller.id, request.params.id);
    return reply.status(204).send();
  });

  api.get(
    "/api/webhook-endpoints/:id/secret",
    { schema: { params: idParams, response: { 200: webhookSecretSchema } } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      reply.header("cache-control", "no-store");
      return { secret: await revealSecret(deps.db, seller.id, request.params.id) };
    },
  );

  api.post(
    "/api/webhook-endpoints/:id/rotate-secret",
    { schema: { params: idParams, response: { 200: webhookSecretSchema } } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      reply.header("cache-control", "no-store");
      return { secret: await rotateSecret(deps.db, seller.id, request.params.id) };
    },
  );

  api.get(
    "/api/webhook-endpoints/:id/deliveries",
    { schema: { params: idParams, response: { 200: webhookDeliveryListSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return { deliveries: await listDeliveries(deps.db, seller.id, request.params.id) };
    },
  );

  api.post(
    "/api/webhook-endpoints/:id/examples",
    { schema: { params: idParams, body: sendExampleEventSchema } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      const now = deps.now();
      await enforceRateLimit(deps.db, SEND_LIMIT, seller.id, WEBHOOK_MESSAGES.tooManySends, now);
      const id = await sendExampleEvent(deps.db, seller.id, request.params.id, request.body.eventType, now);
      return reply.status(202).send({ id });
    },
  );

  api.post("/api/webhook-deliveries/:id/resend", { schema: { params: idParams } }, async (request, reply) => {
    const seller = await requireUser(deps.auth, request);
    const now = deps.now();
    await enforceRateLimit(deps.db, SEND_LIMIT, seller.id, WEBHOOK_MESSAGES.tooManySends, now);
    await resendDelivery(deps.db, seller.id, request.params.id, now);
    return reply.status(202).send({ id: request.params.id });
  });
}
