import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { healthSchema } from "../../../contracts/health";
import { readinessSchema } from "../../../contracts/readiness";
import { checkHealth, type HealthDeps } from "./health";
import { checkReadiness, type ReadinessDeps } from "./readiness";

export function registerStatusRoutes(app: FastifyInstance, deps: HealthDeps & ReadinessDeps): void {
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

  // Readiness, not liveness: a load balancer sends traffic here only while this answers 200.
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      "/api/ready",
      { schema: { response: { 200: readinessSchema, 503: readinessSchema } } },
      async (_request, reply) => {
        const readiness = await checkReadiness(deps);
        reply.header("cache-control", "no-store");
        return reply.status(readiness.status === "ready" ? 200 : 503).send(readiness);
      },
    );
}
