import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { createCheckoutSchema } from "../../../contracts/orders";
import { redirectSchema } from "../../../contracts/seller";
import { enforceRateLimit } from "../../http/rate-limit";
import { type CheckoutDeps, createBuyerCheckout } from "./create-checkout";
import { checkoutVisitor } from "./visitor";

const CHECKOUT_LIMIT = { name: "checkout:ip", limit: 30, windowSeconds: 60 };
const TOO_MANY = "Too many checkouts. Please wait a minute.";

/**
 * create-checkout: Buy Now. No account needed; rate limited per IP, and a network holds one unit of a
 * product at a time (create-checkout.ts), so stock cannot be held hostage.
 */
export function registerCheckoutRoutes(
  app: FastifyInstance,
  deps: CheckoutDeps & { visitorKey: string; now: () => Date },
) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      "/api/checkout",
      { schema: { body: createCheckoutSchema, response: { 200: redirectSchema } } },
      async (request) => {
        await enforceRateLimit(deps.db, CHECKOUT_LIMIT, request.ip, TOO_MANY);
        const visitor = checkoutVisitor(deps.visitorKey, request.ip, request.headers["user-agent"]);
        return { url: await createBuyerCheckout(deps, request.body.productId, visitor, deps.now()) };
      },
    );
}
