import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  EXPORT_API_KINDS,
  EXPORT_API_LIMITS,
  type ExportApiKind,
  type ExportApiQuery,
  exportApiPageSchemas,
  exportApiQuerySchema,
} from "../../../contracts/store-export";
import type { Database } from "../../db/database";
import { exportPage } from "../store-export";
import type { ApiCaller } from "./authenticate-api-key";

/** How each kind is named in the OpenAPI document. */
export const EXPORT_OPERATIONS: Record<ExportApiKind, { operationId: string; what: string }> = {
  products: {
    operationId: "exportProducts",
    what: "products, with their prices, files, cover, tiers and settings",
  },
  "discount-codes": {
    operationId: "exportDiscountCodes",
    what: "discount codes, with the products they apply to",
  },
  customers: {
    operationId: "exportCustomers",
    what: "customers (and emails that unsubscribed without buying), with their purchases and consent",
  },
  orders: {
    operationId: "exportOrders",
    what: "orders, with amounts, refunds, discounts, tax, buyers, disputes and downloads",
  },
  "license-keys": { operationId: "exportLicenseKeys", what: "license keys, with their uses" },
  memberships: { operationId: "exportMemberships", what: "memberships, ended ones too" },
  posts: { operationId: "exportPosts", what: "posts to members, with their tiers and files" },
  invoices: { operationId: "exportInvoices", what: "invoices and credit notes, every version" },
  webhooks: { operationId: "exportWebhooks", what: "webhook endpoints (never their secrets)" },
};

/**
 * `GET /api/v1/export/{kind}`: the store export's records for those who prefer the API
 * (docs/export-format.md), one route per kind so each answer has its schema. Same readers as the archive.
 */
export function registerExportRoutes(
  scope: FastifyInstance,
  db: Database,
  callerOf: (request: FastifyRequest) => ApiCaller,
): void {
  for (const kind of EXPORT_API_KINDS) registerExportRoute(scope, db, callerOf, kind);
}

function registerExportRoute<K extends ExportApiKind>(
  scope: FastifyInstance,
  db: Database,
  callerOf: (request: FastifyRequest) => ApiCaller,
  kind: K,
): void {
  const { operationId, what } = EXPORT_OPERATIONS[kind];
  // Typed by hand: a kind's schema is one of nine, which the zod provider can't relate to the answer.
  scope.get<{ Querystring: ExportApiQuery }>(
    `/api/v1/export/${kind}`,
    {
      schema: { querystring: exportApiQuerySchema, response: { 200: exportApiPageSchemas[kind] } },
      config: {
        openapi: {
          operationId,
          summary: `Export ${kind.replace("-", " ")}`,
          description: `All your ${what}, as the store archive's \`${kind}\` records (docs/export-format.md), oldest first, up to ${EXPORT_API_LIMITS.maxLimit} a page. Pass \`nextCursor\` as \`cursor\` for the next page.`,
        },
      },
    },
    async (request) => exportPage(db, callerOf(request).sellerId, kind, request.query),
  );
}
