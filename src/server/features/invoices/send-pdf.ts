import type { Readable } from "node:stream";
import type { FastifyReply } from "fastify";
import { type InvoiceRow, invoiceFileName } from "./invoice-pdf";

/** Sends a document's PDF, to open in the browser (or save, with its number as the file name). */
export function sendPdf(
  reply: FastifyReply,
  row: Pick<InvoiceRow, "number_text" | "version">,
  pdf: Readable,
  cacheControl: string,
) {
  return reply
    .type("application/pdf")
    .header("content-disposition", `inline; filename="${invoiceFileName(row)}"`)
    .header("cache-control", cacheControl)
    .send(pdf);
}
