import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { analyticsQuerySchema, analyticsSchema, visitSourceFieldsSchema } from "../../../contracts/analytics";
import { dashboardStatsSchema } from "../../../contracts/products";
import type { Database } from "../../db/database";
import { enforceRateLimit } from "../../http/rate-limit";
import { type SellerAnswers, sendSellerAnswer } from "../../http/seller-answers";
import { currentUser, requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { dashboardStats } from "./dashboard-stats";
import { recordProductView } from "./record-product-view";
import { sellerAnalytics } from "./seller-analytics";
import { sourceOfFields } from "./visit-source";

const productParams = z.object({ productId: z.string().min(1).max(64) });
/** Past this, views from one address are not recorded (a script rotating user agents cannot inflate them). */
const PRODUCT_VIEW_LIMIT = { name: "product-view:ip", limit: 120, windowSeconds: 60 * 60 };

export function registerAnalyticsRoutes(
  app: FastifyInstance,
  deps: {
    db: Database;
    auth: Auth;
    answers: SellerAnswers;
    now: () => Date;
    /** Keys the visitor hash of views. */
    secret: string;
  },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    "/api/dashboard/stats",
    { schema: { response: { 200: dashboardStatsSchema } } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      return sendSellerAnswer(request, reply, deps.answers, {
        sellerId: seller.id,
        key: "dashboard-stats",
        schema: dashboardStatsSchema,
        compute: () => dashboardStats(deps.db, seller.id, deps.now()),
      });
    },
  );

  api.get(
    "/api/analytics",
    { schema: { querystring: analyticsQuerySchema, response: { 200: analyticsSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return sellerAnalytics(deps.db, seller.id, request.query, deps.now());
    },
  );

  // Sent by the product page's script. Answers 204 whether or not the view counted: visitors learn nothing.
  api.post(
    "/api/public/products/:productId/views",
    { schema: { params: productParams, body: visitSourceFieldsSchema } },
    async (request, reply) => {
      const withinLimit = await enforceRateLimit(deps.db, PRODUCT_VIEW_LIMIT, request.ip, "").then(
        () => true,
        () => false,
      );
      if (!withinLimit) return reply.status(204).send();
      const viewer = await currentUser(deps.auth, request);
      await recordProductView(deps.db, deps.secret, {
        productId: request.params.productId,
        userAgent: request.headers["user-agent"],
        ip: request.ip,
        viewerId: viewer?.id,
        source: sourceOfFields(request.body),
        now: deps.now(),
      });
      return reply.status(204).send();
    },
  );
}
