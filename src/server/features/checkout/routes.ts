import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { createCheckoutSchema } from "../../../contracts/orders";
import { redirectSchema } from "../../../contracts/seller";
import { enforceRateLimit } from "../../http/rate-limit";
import { type CheckoutDeps, createBuyerCheckout } from "./create-checkout";

const CHECKOUT_LIMIT = { name: "checkout:ip", limit: 30, windowSeconds: 60 };
/** Each checkout of a limited product holds a unit for 30 minutes: one visitor may not hold many. */
const CHECKOUT_PER_PRODUCT_LIMIT = { name: "checkout:ip-product", limit: 5, windowSeconds: 30 * 60 };
const TOO_MANY = "Too many checkouts. Please wait a minute.";

/** create-checkout: Buy Now. No account needed; rate limited per IP so stock cannot be held hostage. */
export function registerCheckoutRoutes(app: FastifyInstance, deps: CheckoutDeps & { now: () => Date }) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      "/api/checkout",
      { schema: { body: createCheckoutSchema, response: { 200: redirectSchema } } },
      async (request) => {
        await enforceRateLimit(deps.db, CHECKOUT_LIMIT, request.ip, TOO_MANY);
        const visitorProduct = `${request.ip}:${request.body.productId}`;
        await enforceRateLimit(deps.db, CHECKOUT_PER_PRODUCT_LIMIT, visitorProduct, TOO_MANY);
        return { url: await createBuyerCheckout(deps, request.body.productId, deps.now()) };
      },
    );
}
