import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  invoiceExportQuerySchema,
  invoicesPageSchema,
  invoicesQuerySchema,
} from "../../../contracts/invoices";
import type { Database } from "../../db/database";
import { requireUser } from "../../http/session";
import type { Auth } from "../auth";
import { documentPdf, sellerDocument } from "./documents";
import { exportFileName, exportInvoicesZip } from "./export-invoices";
import { listInvoices } from "./list-invoices";
import { sendPdf } from "./send-pdf";

export interface InvoiceRouteDeps {
  db: Database;
  auth: Auth;
}

/** The seller's invoices and credit notes: the list, one PDF, and a period's ZIP (all seller-scoped). */
export function registerInvoiceRoutes(app: FastifyInstance, deps: InvoiceRouteDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/invoices",
    { schema: { querystring: invoicesQuerySchema, response: { 200: invoicesPageSchema } } },
    async (request) => {
      const seller = await requireUser(deps.auth, request);
      return listInvoices(deps.db, seller.id, request.query);
    },
  );

  // Before /:id.pdf, which would otherwise take "export.zip" for an id.
  api.get(
    "/api/invoices/export.zip",
    { schema: { querystring: invoiceExportQuerySchema } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      const zip = await exportInvoicesZip(deps.db, seller.id, request.query);
      return reply
        .type("application/zip")
        .header("content-disposition", `attachment; filename="${exportFileName(request.query)}"`)
        .header("cache-control", "no-store")
        .send(zip);
    },
  );

  api.get(
    "/api/invoices/:file",
    { schema: { params: z.object({ file: z.string().regex(/^[A-Za-z0-9_-]{1,64}\.pdf$/) }) } },
    async (request, reply) => {
      const seller = await requireUser(deps.auth, request);
      const row = await sellerDocument(deps.db, seller.id, request.params.file.replace(/\.pdf$/, ""));
      return sendPdf(reply, row, await documentPdf(deps.db, row), "private, no-store");
    },
  );
}
