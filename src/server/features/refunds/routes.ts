import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { type RefundDeps, refundOrder } from "./refund-order";

const orderParams = z.object({ id: z.string().min(1).max(64) });

/** The seller refunds one of their sales from the dashboard (the seller API has its own route, v1-routes.ts). */
export function registerRefundRoutes(
  app: FastifyInstance,
  deps: RefundDeps & { auth: Auth; now: () => Date },
) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post("/api/orders/:id/refund", { schema: { params: orderParams } }, async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      await refundOrder(deps, seller.id, request.params.id, deps.now());
      return reply.status(204).send();
    });
}
