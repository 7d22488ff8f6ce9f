import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  cancelMembershipSchema,
  memberSchema,
  membersPageSchema,
  membersQuerySchema,
} from "../../../contracts/memberships";
import { sellerProductDetailSchema } from "../../../contracts/products";
import {
  apiIdParamsSchema,
  apiInvoicePageSchema,
  apiInvoiceSchema,
  apiInvoicesQuerySchema,
  apiProductListQuerySchema,
  apiProductListSchema,
  apiSalePageSchema,
  apiSaleSchema,
  apiSalesQuerySchema,
} from "../../../contracts/seller-api";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import { documentPdf, getApiInvoice, listApiInvoices, sellerDocument, sendPdf } from "../invoices";
import { cancelMembership, getMember, type MemberActionDeps, membersPage } from "../memberships";
import { resetDownloads } from "../orders";
import { getSellerProduct, listSellerProducts } from "../products";
import { type RefundDeps, refundOrder } from "../refunds";
import { getApiSale, listApiSales } from "./api-sales";
import { API_KEY_RATE, type ApiCaller, authenticateApiKey } from "./authenticate-api-key";
import { registerExportRoutes } from "./export-routes";
import { type DocumentedRoute, documentRoutes, openApiDocument } from "./openapi";
import { recordApiRequest } from "./request-log";

export type SellerApiDeps = RefundDeps &
  MemberActionDeps & { db: Database; events: EventBus; appUrl: string; now: () => Date };

export const OPENAPI_PATH = "/api/v1/openapi.json";

const callers = new WeakMap<FastifyRequest, ApiCaller>();
function callerOf(request: FastifyRequest): ApiCaller {
  const caller = callers.get(request);
  if (!caller) throw new Error("seller API route reached without a caller");
  return caller;
}

/**
 * The seller REST API (docs/api.md): every route is a thin adapter from a bearer key to the seller id the
 * dashboard's own use cases take, so the key's seller is the only one whose data it can reach.
 *
 * No cookie is ever read here, and the cross-site guard (request-guards.ts) is kept: servers and scripts
 * send no Origin and pass, and there is deliberately no CORS, since a secret key must not sit in a web
 * page. So a browser on another site can neither send a key (the preflight is refused) nor ride a session.
 */
export function registerSellerApiRoutes(app: FastifyInstance, deps: SellerApiDeps): void {
  let routes: DocumentedRoute[] = [];
  app.register(async (scope) => {
    routes = documentRoutes(scope);
    registerKeyedRoutes(scope, deps);
  });

  let document: ReturnType<typeof openApiDocument> | undefined;
  app.get(OPENAPI_PATH, async (_request, reply) => {
    document ??= openApiDocument(deps.appUrl, routes);
    // A public description of the API: tools and API explorers on any site may load it.
    return reply
      .header("access-control-allow-origin", "*")
      .header("cache-control", "public, max-age=300")
      .send(document);
  });
}

function registerKeyedRoutes(scope: FastifyInstance, deps: SellerApiDeps): void {
  scope.addHook("onRequest", async (request, reply) => {
    reply.header("cache-control", "no-store");
    try {
      await authenticateApiKey(
        deps.db,
        { authorization: request.headers.authorization, ip: request.ip },
        deps.now(),
        (caller) => callers.set(request, caller),
      );
    } catch (error) {
      if (error instanceof AppError && error.status === 429) {
        reply.header("retry-after", String(API_KEY_RATE.windowSeconds));
      }
      throw error;
    }
  });
  // Logged after the answer is sent: the seller's request log never slows a call down.
  scope.addHook("onResponse", async (request, reply) => {
    const caller = callers.get(request);
    if (!caller) return;
    const call = { method: request.method, url: request.url, status: reply.statusCode };
    await recordApiRequest(deps.db, caller, call, deps.now()).catch((error: unknown) =>
      request.log.error({ err: error }, "could not log an API request"),
    );
  });

  const api = scope.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/v1/products",
    {
      schema: { querystring: apiProductListQuerySchema, response: { 200: apiProductListSchema } },
      config: {
        openapi: {
          operationId: "listProducts",
          summary: "List products",
          description: "Your products, newest first, a page at a time.",
        },
      },
    },
    async (request) =>
      listSellerProducts(deps.db, callerOf(request).sellerId, request.query.limit, request.query.before),
  );

  api.get(
    "/api/v1/products/:id",
    {
      schema: { params: apiIdParamsSchema, response: { 200: sellerProductDetailSchema } },
      config: {
        openapi: {
          operationId: "getProduct",
          summary: "Get a product",
          description: "One of your products, with its files and the units sold and held in open checkouts.",
          errors: [404],
        },
      },
    },
    async (request) => getSellerProduct(deps.db, callerOf(request).sellerId, request.params.id),
  );

  api.get(
    "/api/v1/sales",
    {
      schema: { querystring: apiSalesQuerySchema, response: { 200: apiSalePageSchema } },
      config: {
        openapi: {
          operationId: "listSales",
          summary: "List sales",
          description:
            "Your sales, newest first, a page at a time; optionally of one product and within a time range (`from` included, `to` excluded). Pass `nextCursor` as `before`, with the same filters, for the next page.",
        },
      },
    },
    async (request) => listApiSales(deps.db, callerOf(request).sellerId, request.query),
  );

  api.get(
    "/api/v1/sales/:id",
    {
      schema: { params: apiIdParamsSchema, response: { 200: apiSaleSchema } },
      config: { openapi: { operationId: "getSale", summary: "Get a sale", errors: [404] } },
    },
    async (request) => getApiSale(deps.db, callerOf(request).sellerId, request.params.id),
  );

  api.post(
    "/api/v1/sales/:id/refund",
    {
      schema: { params: apiIdParamsSchema, response: { 200: apiSaleSchema } },
      config: {
        openapi: {
          operationId: "refundSale",
          summary: "Refund a sale",
          description:
            "Refunds the sale in full through Stripe on your account, as the dashboard does: the buyer is emailed and their download links stop working at once. Answers the refunded sale.",
          errors: [404, 409],
        },
      },
    },
    async (request) => {
      const { sellerId } = callerOf(request);
      await refundOrder(deps, sellerId, request.params.id, deps.now());
      return getApiSale(deps.db, sellerId, request.params.id);
    },
  );

  api.post(
    "/api/v1/sales/:id/reset-downloads",
    {
      schema: { params: apiIdParamsSchema, response: { 200: apiSaleSchema } },
      config: {
        openapi: {
          operationId: "resetSaleDownloads",
          summary: "Reset a sale's downloads",
          description: "Gives the buyer their downloads back, as the dashboard does. Answers the sale.",
          errors: [404],
        },
      },
    },
    async (request) => {
      const { sellerId } = callerOf(request);
      await resetDownloads(deps, sellerId, request.params.id);
      return getApiSale(deps.db, sellerId, request.params.id);
    },
  );

  api.get(
    "/api/v1/invoices",
    {
      schema: { querystring: apiInvoicesQuerySchema, response: { 200: apiInvoicePageSchema } },
      config: {
        openapi: {
          operationId: "listInvoices",
          summary: "List invoices and credit notes",
          description:
            "Your invoices and credit notes, newest first (by the date they were issued), a page at a time: the newest version of each number. Optionally of one sale (`orderId`), of one kind (`invoice` or `credit_note`) and within a time range (`from` included, `to` excluded). Pass `nextCursor` as `before`, with the same filters, for the next page.",
        },
      },
    },
    async (request) => listApiInvoices(deps.db, callerOf(request).sellerId, request.query, deps.appUrl),
  );

  api.get(
    "/api/v1/invoices/:id",
    {
      schema: { params: apiIdParamsSchema, response: { 200: apiInvoiceSchema } },
      config: {
        openapi: {
          operationId: "getInvoice",
          summary: "Get an invoice or credit note",
          description:
            "One document as it was issued: its number, version, parties, lines and amounts. An earlier version's id answers that version.",
          errors: [404],
        },
      },
    },
    async (request) => getApiInvoice(deps.db, callerOf(request).sellerId, request.params.id, deps.appUrl),
  );

  api.get(
    "/api/v1/invoices/:id/pdf",
    {
      schema: { params: apiIdParamsSchema },
      config: {
        openapi: {
          operationId: "getInvoicePdf",
          summary: "Download an invoice or credit note as PDF",
          description: "The document as the buyer gets it (A4 PDF), rendered from the stored document.",
          errors: [404],
          produces: "application/pdf",
        },
      },
    },
    async (request, reply) => {
      const row = await sellerDocument(deps.db, callerOf(request).sellerId, request.params.id);
      return sendPdf(reply, row, await documentPdf(deps.db, row), "private, no-store");
    },
  );

  api.get(
    "/api/v1/memberships",
    {
      schema: { querystring: membersQuerySchema, response: { 200: membersPageSchema } },
      config: {
        openapi: {
          operationId: "listMemberships",
          summary: "List memberships",
          description:
            "Your members, newest first, a page at a time; optionally of one product, with one status (`trialing`, `active`, `past_due`, `canceling`, `ended`) or an email search (`q`). Pass `nextCursor` as `before`, with the same filters, for the next page.",
        },
      },
    },
    async (request) => membersPage(deps.db, callerOf(request).sellerId, request.query, deps.now()),
  );

  api.get(
    "/api/v1/memberships/:id",
    {
      schema: { params: apiIdParamsSchema, response: { 200: memberSchema } },
      config: { openapi: { operationId: "getMembership", summary: "Get a membership", errors: [404] } },
    },
    async (request) => getMember(deps.db, callerOf(request).sellerId, request.params.id, deps.now()),
  );

  api.post(
    "/api/v1/memberships/:id/cancel",
    {
      schema: { params: apiIdParamsSchema, body: cancelMembershipSchema, response: { 200: memberSchema } },
      config: {
        openapi: {
          operationId: "cancelMembership",
          summary: "Cancel a membership",
          description:
            "Cancels the member's subscription on your Stripe account, as the dashboard does: `now` ends access at once, `period_end` keeps it until the period paid for ends. The member is emailed. Answers the membership.",
          errors: [404, 409],
        },
      },
    },
    async (request) =>
      cancelMembership(deps, callerOf(request).sellerId, request.params.id, request.body.when),
  );

  registerExportRoutes(scope, deps.db, callerOf);
}
