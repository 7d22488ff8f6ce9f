import type { Database } from "../../db/database";
import { queueInvoiceWebhooks } from "../seller-webhooks";
import { apiInvoiceOf } from "./api-invoices";
import type { InvoiceRow } from "./invoice-pdf";

/** What storing a document needs besides the transaction: the address its PDF link is made with. */
export interface IssueDeps {
  appUrl: string;
}

/**
 * Stores a new document (an invoice, a credit note or a corrected version) in the caller's transaction
 * and queues its `invoice.issued` webhook there too: the event exists exactly when the document does.
 */
export async function storeDocument(
  trx: Database,
  deps: IssueDeps,
  row: InvoiceRow,
  at: Date,
): Promise<void> {
  await trx
    .insertInto("invoices")
    .values({
      ...row,
      seller: JSON.stringify(row.seller),
      buyer: JSON.stringify(row.buyer),
      lines: JSON.stringify(row.lines),
    })
    .execute();
  await queueInvoiceWebhooks(trx, row.seller_id, () => apiInvoiceOf(row, deps.appUrl), at);
}
