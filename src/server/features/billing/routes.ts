import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { redirectSchema, sellerStatusSchema } from "../../../contracts/seller";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { openBillingPortal } from "./open-billing-portal";
import { sellerStatus } from "./seller-status";
import { type BillingDeps, startPlanCheckout } from "./start-plan-checkout";

export function registerBillingRoutes(
  app: FastifyInstance,
  deps: BillingDeps & { auth: Auth; now: () => Date },
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get("/api/seller/status", { schema: { response: { 200: sellerStatusSchema } } }, async (request) => {
    const seller = await requireUser(deps.auth, request);
    return sellerStatus(deps.db, seller.id, deps.now());
  });

  routes.post("/api/billing/checkout", { schema: { response: { 200: redirectSchema } } }, async (request) => {
    const seller = await requireUser(deps.auth, request);
    return { url: await startPlanCheckout(deps, seller, deps.now()) };
  });

  routes.post("/api/billing/portal", { schema: { response: { 200: redirectSchema } } }, async (request) => {
    const seller = await requireUser(deps.auth, request);
    return { url: await openBillingPortal(deps, seller) };
  });
}
