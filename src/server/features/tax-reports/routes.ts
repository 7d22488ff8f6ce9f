import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  countryCodeSchema,
  quarterOf,
  quarterSchema,
  taxGuideSchema,
  taxReportCsvFileName,
  taxReportSchema,
} from "../../../contracts/tax-reports";
import type { Database } from "../../db/database";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { taxGuide } from "./tax-guide";
import { taxReport } from "./tax-report";
import { taxReportCsv } from "./tax-report-csv";

export interface TaxReportRouteDeps {
  db: Database;
  auth: Auth;
  now: () => Date;
}

const reportQuery = z.object({ quarter: quarterSchema.optional() });

export function registerTaxReportRoutes(app: FastifyInstance, deps: TaxReportRouteDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/tax/report",
    { schema: { querystring: reportQuery, response: { 200: taxReportSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return taxReport(deps.db, seller.id, request.query.quarter, deps.now());
    },
  );

  api.get("/api/tax/report.csv", { schema: { querystring: reportQuery } }, async (request, reply) => {
    const seller = await requireUser(deps.auth, request);
    const quarter = request.query.quarter ?? quarterOf(deps.now());
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="${taxReportCsvFileName(quarter)}"`)
      .header("cache-control", "no-store")
      .send(taxReportCsv(deps.db, seller.id, quarter));
  });

  api.get(
    "/api/tax/guide",
    {
      schema: {
        querystring: z.object({ country: countryCodeSchema.optional() }),
        response: { 200: taxGuideSchema },
      },
    },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return taxGuide(deps.db, seller.id, request.query.country, deps.now());
    },
  );
}
