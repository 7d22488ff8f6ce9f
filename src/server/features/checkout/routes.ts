import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { createCheckoutSchema } from "../../../contracts/orders";
import { redirectSchema } from "../../../contracts/seller";
import { enforceRateLimit } from "../../http/rate-limit";
import { type CheckoutDeps, createBuyerCheckout } from "./create-checkout";
import { checkoutBrowserId, checkoutVisitor } from "./visitor";

const CHECKOUT_LIMIT = { name: "checkout:ip", limit: 30, windowSeconds: 60 };
const TOO_MANY = "Too many checkouts. Please wait a minute.";

export type CheckoutRouteDeps = CheckoutDeps & { visitorKey: string; now: () => Date };

/** The discount code in Buy Now's body (the JSON route's `code`, or the product page form's field), if any. */
function discountCodeOf(body: unknown): string | undefined {
  const code = (body as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && code.trim() !== "" ? code.slice(0, 200) : undefined;
}

/**
 * Buy Now, for the JSON route and the product page's form alike: the Stripe Checkout URL of a new (or
 * this visitor's open) checkout of the product, priced with the buyer's discount code if there is one.
 * Rate limited per IP.
 */
export async function buyNow(
  deps: CheckoutRouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  productId: string,
) {
  await enforceRateLimit(deps.db, CHECKOUT_LIMIT, request.ip, TOO_MANY);
  const browserId = checkoutBrowserId(request, reply, deps.appUrl.startsWith("https://"));
  const visitor = checkoutVisitor(deps.visitorKey, request.ip, browserId);
  return createBuyerCheckout(deps, productId, visitor, deps.now(), discountCodeOf(request.body));
}

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
    );
}
