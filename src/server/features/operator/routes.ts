import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { auditLogPageSchema, auditLogQuerySchema, operatorMeSchema } from "../../../contracts/operator";
import { listAuditLog } from "./audit-log";
import { type OperatorAccessDeps, requireOperator } from "./operator-access";

/** The console's own routes; other rooms add theirs under /api/operator with requireOperator. */
export function registerOperatorRoutes(app: FastifyInstance, deps: OperatorAccessDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get("/api/operator/me", { schema: { response: { 200: operatorMeSchema } } }, async (request, reply) => {
    const operator = await requireOperator(deps, request);
    reply.header("cache-control", "no-store");
    return { id: operator.id ?? "", email: operator.email };
  });

  api.get(
    "/api/operator/audit-log",
    { schema: { querystring: auditLogQuerySchema, response: { 200: auditLogPageSchema } } },
    async (request, reply) => {
      await requireOperator(deps, request);
      reply.header("cache-control", "no-store");
      return listAuditLog(deps.db, request.query);
    },
  );
}
