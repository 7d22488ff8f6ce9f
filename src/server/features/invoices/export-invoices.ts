import type { Readable } from "node:stream";
import type { Database } from "../../db/database";
import { documentPdf, sellerDocument } from "./documents";
import { invoiceFileName } from "./invoice-pdf";
import { dayRange, type Period, periodDocuments } from "./list-invoices";

/**
 * GET /api/invoices/export.zip: every document of the period (the newest version of each) as one ZIP,
 * streamed. Only the ids are read up front; each PDF is read and rendered when yazl reaches its entry,
 * so one document at a time is in memory however long the period.
 */
export async function exportInvoicesZip(db: Database, sellerId: string, period: Period): Promise<Readable> {
  const { ZipFile } = await import("yazl");
  const rows = await periodDocuments(db, sellerId, dayRange(period))
    .select(["invoices.id", "invoices.kind", "invoices.number_text", "invoices.version"])
    .orderBy("invoices.kind")
    .orderBy("invoices.number")
    .execute();
  const zip = new ZipFile();
  for (const row of rows) {
    const folder = row.kind === "invoice" ? "invoices" : "credit-notes";
    zip.addReadStreamLazy(`${folder}/${invoiceFileName(row)}`, (done) => {
      sellerDocument(db, sellerId, row.id)
        .then((document) => documentPdf(db, document))
        .then(
          (stream) => done(null, stream),
          (error: unknown) => done(error, undefined as never),
        );
    });
  }
  zip.end();
  return zip.outputStream as Readable;
}

/** The export's file name: the period it covers. */
export const exportFileName = (period: Period) =>
  `invoices${period.from ? `-${period.from}` : ""}${period.to ? `-to-${period.to}` : ""}.zip`;
