import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { subscribeSchema } from "../../../contracts/memberships";
import { createCheckoutSchema } from "../../../contracts/orders";
import { freeClaimSchema } from "../../../contracts/products";
import { redirectSchema } from "../../../contracts/seller";
import { buyNow, type CheckoutRouteDeps, claimFree, subscribe } from "./buyer-actions";

/**
 * create-checkout: Buy Now. No account needed; rate limited per IP, and a network holds one unit of a
 * product at a time (create-checkout.ts), so stock cannot be held hostage.
 */
export function registerCheckoutRoutes(app: FastifyInstance, deps: CheckoutRouteDeps) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      "/api/checkout",
      { schema: { body: createCheckoutSchema, response: { 200: redirectSchema } } },
      async (request, reply) => ({ url: await buyNow(deps, request, reply, request.body.productId) }),
    )
    .post(
      "/api/checkout/subscribe",
      { schema: { body: subscribeSchema, response: { 200: redirectSchema } } },
      async (request, reply) => {
        const { productId, tierId, interval } = request.body;
        return { url: await subscribe(deps, request, reply, productId, { tierId, interval }) };
      },
    )
    .post(
      "/api/checkout/free",
      { schema: { body: freeClaimSchema, response: { 202: z.object({ email: z.string() }) } } },
      async (request, reply) => {
        await claimFree(deps, request, reply, request.body);
        return reply.status(202).send({ email: request.body.email });
      },
    );
}
