import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  operatorReportSchema,
  operatorReportsPageSchema,
  operatorReportsQuerySchema,
  reportAnswerSchema,
  reportStatusChangeSchema,
  sellerReportSchema,
  sellerReportsPageSchema,
  sellerReportsQuerySchema,
} from "../../../contracts/reports";
import type { Outbox } from "../../adapters/mail/outbox";
import type { Database } from "../../db/database";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { requireOperator } from "../operator";
import { changeReportStatus, getReport, listReports } from "./operator-reports";
import { answerReport, getSellerReport, listSellerReports } from "./seller-reports";

export interface ReportRouteDeps {
  db: Database;
  auth: Auth;
  /** Reporters hear of decisions, claimants of counter-notices. */
  outbox: Outbox;
  appUrl: string;
  /** Whether uploads are scanned by ClamAV here (said with a report's files). */
  clamAv: boolean;
  now: () => Date;
}

const reportParams = z.object({ reportId: z.string().min(1).max(100) });

/**
 * The operator's queue and report pages (`/api/operator/reports`, requireOperator: 404 to anyone else)
 * and the seller's reports about their store (`/api/seller/reports`, only their own: another's is 404).
 */
export function registerReportRoutes(app: FastifyInstance, deps: ReportRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/operator/reports",
    { schema: { querystring: operatorReportsQuerySchema, response: { 200: operatorReportsPageSchema } } },
    async (request, reply) => {
      await requireOperator(deps, request);
      reply.header("cache-control", "no-store");
      return listReports(deps.db, request.query, deps.now());
    },
  );

  api.get(
    "/api/operator/reports/:reportId",
    { schema: { params: reportParams, response: { 200: operatorReportSchema } } },
    async (request, reply) => {
      await requireOperator(deps, request);
      reply.header("cache-control", "no-store");
      return getReport(deps, request.params.reportId, deps.now());
    },
  );

  api.post(
    "/api/operator/reports/:reportId/status",
    {
      schema: {
        params: reportParams,
        body: reportStatusChangeSchema,
        response: { 200: operatorReportSchema },
      },
    },
    async (request) => {
      const operator = await requireOperator(deps, request);
      await changeReportStatus(deps, operator, request.params.reportId, request.body, deps.now());
      return getReport(deps, request.params.reportId, deps.now());
    },
  );

  api.get(
    "/api/seller/reports",
    { schema: { querystring: sellerReportsQuerySchema, response: { 200: sellerReportsPageSchema } } },
    async (request, reply) => {
      const user = await requireUser(deps.auth, request);
      reply.header("cache-control", "no-store");
      return listSellerReports(deps.db, user.id, request.query.page);
    },
  );

  api.get(
    "/api/seller/reports/:reportId",
    { schema: { params: reportParams, response: { 200: sellerReportSchema } } },
    async (request, reply) => {
      const user = await requireUser(deps.auth, request);
      reply.header("cache-control", "no-store");
      return getSellerReport(deps.db, user.id, request.params.reportId);
    },
  );

  api.post(
    "/api/seller/reports/:reportId/answer",
    { schema: { params: reportParams, body: reportAnswerSchema, response: { 200: sellerReportSchema } } },
    async (request) => {
      const user = await requireUser(deps.auth, request);
      return answerReport(deps, user, request.params.reportId, request.body, deps.now());
    },
  );
}
