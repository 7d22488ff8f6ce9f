import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { healthSchema } from "../../../contracts/health";
import { checkHealth, type HealthDeps } from "./health";

export function registerStatusRoutes(app: FastifyInstance, deps: HealthDeps): void {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      "/api/health",
      { schema: { response: { 200: healthSchema, 503: healthSchema } } },
      async (_request, reply) => {
        const health = await checkHealth(deps);
        reply.header("cache-control", "no-store");
        return reply.status(health.services.database === "ok" ? 200 : 503).send(health);
      },
    );
}
