import type { Readable } from "node:stream";
import type { InvoiceKind } from "../../../contracts/invoices";
import type { Database } from "../../db/database";
import { notFound } from "../../http/errors";
import { type InvoiceRow, renderInvoicePdf } from "./invoice-pdf";

/** A seller's document by id: another seller's (or none) is 404, never 403. */
export async function sellerDocument(db: Database, sellerId: string, id: string): Promise<InvoiceRow> {
  const row = await db
    .selectFrom("invoices")
    .selectAll()
    .where("seller_id", "=", sellerId)
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw notFound("Invoice not found");
  return row;
}

/** The newest version of an order's invoice or credit note. */
export function latestDocumentOfOrder(db: Database, orderId: string, kind: InvoiceKind) {
  return db
    .selectFrom("invoices")
    .selectAll()
    .where("order_id", "=", orderId)
    .where("kind", "=", kind)
    .orderBy("version", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** A document as a PDF, with what a credit note names of its invoice. */
export async function documentPdf(db: Database, row: InvoiceRow): Promise<Readable> {
  const credited = row.credited_invoice_id
    ? await db
        .selectFrom("invoices")
        .select("number_text")
        .where("id", "=", row.credited_invoice_id)
        .where("seller_id", "=", row.seller_id)
        .executeTakeFirst()
    : undefined;
  return renderInvoicePdf(row, { creditedNumberText: credited?.number_text ?? null });
}
