import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  actionResultSchema,
  appealAnswerSchema,
  appealBodySchema,
  appealIdParamsSchema,
  appealQueueSchema,
  operatorSellerSchema,
  platformFiguresSchema,
  productActionBodySchema,
  productIdParamsSchema,
  sellerActionBodySchema,
  sellerIdParamsSchema,
  sellerSearchPageSchema,
  sellerSearchQuerySchema,
  standingSchema,
} from "../../../contracts/enforcement";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { requireOperator } from "../operator";
import { reinstateProduct, takeDownProduct, takeSellerAction } from "./actions";
import { answerAppeal, fileAppeal, listOpenAppeals } from "./appeals";
import type { EnforcementDeps } from "./enforcement-deps";
import { platformFigures } from "./platform-figures";
import { operatorSeller, searchSellers } from "./sellers";
import { readStanding } from "./standing";

type RouteDeps = EnforcementDeps & { auth: Auth; now: () => Date };

/** The console's enforcement routes (operators only: requireOperator) and the seller's Standing routes. */
export function registerEnforcementRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/operator/overview",
    { schema: { response: { 200: platformFiguresSchema } } },
    async (request, reply) => {
      await requireOperator(deps, request);
      reply.header("cache-control", "no-store");
      return platformFigures(deps.db, deps.now());
    },
  );

  api.get(
    "/api/operator/sellers",
    { schema: { querystring: sellerSearchQuerySchema, response: { 200: sellerSearchPageSchema } } },
    async (request, reply) => {
      await requireOperator(deps, request);
      reply.header("cache-control", "no-store");
      return searchSellers(deps.db, request.query);
    },
  );

  api.get(
    "/api/operator/sellers/:sellerId",
    { schema: { params: sellerIdParamsSchema, response: { 200: operatorSellerSchema } } },
    async (request, reply) => {
      await requireOperator(deps, request);
      reply.header("cache-control", "no-store");
      return operatorSeller(deps.db, request.params.sellerId, deps.now());
    },
  );

  api.post(
    "/api/operator/sellers/:sellerId/actions",
    {
      schema: {
        params: sellerIdParamsSchema,
        body: sellerActionBodySchema,
        response: { 200: actionResultSchema },
      },
    },
    async (request) => {
      const operator = await requireOperator(deps, request);
      const standing = await takeSellerAction(
        deps,
        operator,
        request.params.sellerId,
        request.body,
        deps.now(),
      );
      return { standing };
    },
  );

  api.post(
    "/api/operator/products/:productId/take-down",
    {
      schema: {
        params: productIdParamsSchema,
        body: productActionBodySchema,
        response: { 200: actionResultSchema },
      },
    },
    async (request) => {
      const operator = await requireOperator(deps, request);
      return {
        standing: await takeDownProduct(deps, operator, request.params.productId, request.body, deps.now()),
      };
    },
  );

  api.post(
    "/api/operator/products/:productId/reinstate",
    {
      schema: {
        params: productIdParamsSchema,
        body: productActionBodySchema,
        response: { 200: actionResultSchema },
      },
    },
    async (request) => {
      const operator = await requireOperator(deps, request);
      return {
        standing: await reinstateProduct(deps, operator, request.params.productId, request.body, deps.now()),
      };
    },
  );

  api.get(
    "/api/operator/appeals",
    { schema: { response: { 200: appealQueueSchema } } },
    async (request, reply) => {
      await requireOperator(deps, request);
      reply.header("cache-control", "no-store");
      return { appeals: await listOpenAppeals(deps.db) };
    },
  );

  api.post(
    "/api/operator/appeals/:appealId/answer",
    {
      schema: {
        params: appealIdParamsSchema,
        body: appealAnswerSchema,
        response: { 200: actionResultSchema },
      },
    },
    async (request) => {
      const operator = await requireOperator(deps, request);
      return {
        standing: await answerAppeal(deps, operator, request.params.appealId, request.body, deps.now()),
      };
    },
  );

  // The seller's own standing and appeals (Settings → Standing): open to a restricted or suspended seller.
  api.get("/api/standing", { schema: { response: { 200: standingSchema } } }, async (request, reply) => {
    const seller = await requireUser(deps.auth, request);
    reply.header("cache-control", "no-store");
    return readStanding(deps.db, seller.id);
  });

  api.post(
    "/api/standing/appeals",
    { schema: { body: appealBodySchema, response: { 201: standingSchema } } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      const standing = await fileAppeal(
        deps,
        { id: seller.id, email: seller.email },
        request.body,
        deps.now(),
      );
      return reply.status(201).send(standing);
    },
  );
}
