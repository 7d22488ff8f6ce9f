import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { dashboardStatsSchema } from "../../../contracts/products";
import type { Database } from "../../db/database";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth/auth";
import { dashboardStats } from "./dashboard-stats";

export function registerAnalyticsRoutes(
  app: FastifyInstance,
  deps: { db: Database; auth: Auth; now: () => Date },
) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get("/api/dashboard/stats", { schema: { response: { 200: dashboardStatsSchema } } }, async (request) => {
      const seller = await requireUser(deps.auth, request);
      return dashboardStats(deps.db, seller.id, deps.now());
    });
}
