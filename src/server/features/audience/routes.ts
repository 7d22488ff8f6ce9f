import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  broadcastDraftSchema,
  broadcastListSchema,
  broadcastPreviewSchema,
  broadcastSchema,
  customersCsvFileName,
  customersPageSchema,
  customersQuerySchema,
  productUpdateStatusSchema,
} from "../../../contracts/audience";
import type { Outbox } from "../../adapters/mail/outbox";
import type { Database } from "../../db/database";
import { isTimeZone } from "../../http/csv";
import { badRequest, notFound } from "../../http/errors";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { loadPublicPageAssets } from "../public-pages";
import { customersPage } from "./customers";
import { customersCsv } from "./customers-csv";
import { productUpdateAllowance } from "./limits";
import { listBroadcasts } from "./list-broadcasts";
import { countRecipients } from "./recipients";
import { createBroadcast, previewBroadcast } from "./send-broadcast";
import { registerUnsubscribePages } from "./unsubscribe-pages";

export interface AudienceRouteDeps {
  db: Database;
  auth: Auth;
  outbox: Outbox;
  appUrl: string;
  unsubscribeKey: string;
  linkKey: string;
  now: () => Date;
  /** The built web app, whose stylesheet the unsubscribe page inlines. */
  webDistDir: string;
}

const productParams = z.object({ id: z.string().min(1).max(64) });

/**
 * Customers (one row per buyer email), the seller's emails to their buyers, and the buyers'
 * unsubscribe pages. A send's emails are queued by its job (queue-broadcasts.ts).
 */
export async function registerAudienceRoutes(app: FastifyInstance, deps: AudienceRouteDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/customers",
    { schema: { querystring: customersQuerySchema, response: { 200: customersPageSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      const { limit, before, q } = request.query;
      return customersPage(deps.db, seller.id, limit, { before, search: q });
    },
  );

  api.get(
    "/api/customers/export.csv",
    {
      schema: {
        querystring: z.object({
          tz: z.string().max(64).default("UTC"),
          q: customersQuerySchema.shape.q,
        }),
      },
    },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      if (!isTimeZone(request.query.tz)) throw badRequest("Unknown time zone");
      return reply
        .type("text/csv; charset=utf-8")
        .header(
          "content-disposition",
          `attachment; filename="${customersCsvFileName(deps.now(), request.query.tz)}"`,
        )
        .header("cache-control", "no-store")
        .send(customersCsv(deps.db, seller.id, request.query.tz, request.query.q));
    },
  );

  api.get("/api/broadcasts", { schema: { response: { 200: broadcastListSchema } } }, async (request) => {
    const seller = await requireUser(deps.auth, request);
    return listBroadcasts(deps.db, seller.id, deps.now());
  });

  api.post(
    "/api/broadcasts/preview",
    { schema: { body: broadcastDraftSchema, response: { 200: broadcastPreviewSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return previewBroadcast(deps, seller.id, request.body);
    },
  );

  api.post(
    "/api/broadcasts",
    { schema: { body: broadcastDraftSchema, response: { 201: broadcastSchema } } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      const broadcast = await createBroadcast(deps.db, seller.id, request.body, deps.now());
      return reply.status(201).send(broadcast);
    },
  );

  // The product edit page's update card.
  api.get(
    "/api/products/:id/update-email",
    { schema: { params: productParams, response: { 200: productUpdateStatusSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      const product = await deps.db
        .selectFrom("products")
        .select("id")
        .where("id", "=", request.params.id)
        .where("user_id", "=", seller.id)
        .executeTakeFirst();
      if (!product) throw notFound("Product not found");
      const [buyers, allowance] = await Promise.all([
        countRecipients(deps.db, seller.id, { audience: "product", productId: product.id }),
        productUpdateAllowance(deps.db, product.id, deps.now()),
      ]);
      return {
        buyers,
        nextAvailableAt: allowance.nextAvailableAt?.toISOString() ?? null,
        lastSentAt: allowance.lastSentAt?.toISOString() ?? null,
      };
    },
  );

  registerUnsubscribePages(app, {
    db: deps.db,
    assets: await loadPublicPageAssets(deps.webDistDir),
    unsubscribeKey: deps.unsubscribeKey,
    now: deps.now,
  });
}
