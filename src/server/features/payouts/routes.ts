import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { redirectSchema } from "../../../contracts/seller";
import { currentUser, requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { type PayoutDeps, startOnboarding } from "./start-onboarding";

export function registerPayoutRoutes(
  app: FastifyInstance,
  deps: PayoutDeps & { auth: Auth; now: () => Date },
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    "/api/payouts/onboarding",
    { schema: { response: { 200: redirectSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return { url: await startOnboarding(deps, seller, deps.now()) };
    },
  );

  // Stripe sends the browser here when an onboarding link expired or was used: mint a fresh one.
  routes.get("/api/payouts/onboarding/refresh", async (request, reply) => {
    const seller = await currentUser(deps.auth, request);
    if (!seller) return reply.redirect("/auth");
    return reply.redirect(await startOnboarding(deps, seller, deps.now()));
  });
}
