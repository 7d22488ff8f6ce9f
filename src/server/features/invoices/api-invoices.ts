import { type InvoiceParty, REVERSE_CHARGE_NOTE } from "../../../contracts/invoices";
import {
  type ApiInvoice,
  type ApiInvoicePage,
  type ApiInvoicesQuery,
  parseApiDate,
} from "../../../contracts/seller-api";
import type { Database } from "../../db/database";
import { sellerDocument } from "./documents";
import type { InvoiceRow } from "./invoice-pdf";
import { documentsPage } from "./list-invoices";

/** Where the seller API serves a document's PDF (the seller's API key). */
export const apiInvoicePdfUrl = (appUrl: string, id: string) => `${appUrl}/api/v1/invoices/${id}/pdf`;

function apiParty(party: InvoiceParty): ApiInvoice["buyer"] {
  return {
    name: party.name,
    businessName: party.businessName,
    address: party.address,
    country: party.country,
    taxId: party.taxId,
    taxIdCheckedAt: party.taxIdCheckedAt,
    email: party.email,
  };
}

/** A stored document as the seller API and the `invoice.issued` webhook show it (docs/api.md). */
export function apiInvoiceOf(row: InvoiceRow, appUrl: string): ApiInvoice {
  return {
    id: row.id,
    kind: row.kind,
    number: row.number_text,
    version: row.version,
    issuedAt: row.issued_at.toISOString(),
    paidAt: row.paid_at.toISOString(),
    orderId: row.order_id,
    creditedInvoiceId: row.credited_invoice_id,
    seller: apiParty(row.seller),
    buyer: apiParty(row.buyer),
    lines: row.lines.map((line) => ({
      description: line.description,
      periodStart: line.periodStart,
      periodEnd: line.periodEnd,
      quantity: line.quantity,
      netCents: line.netCents,
      taxCents: line.taxCents,
      totalCents: line.totalCents,
      taxLabel: line.taxLabel,
    })),
    currency: row.currency,
    netCents: row.subtotal_cents,
    taxCents: row.tax_cents,
    totalCents: row.total_cents,
    reverseCharge: row.reverse_charge,
    taxNote: row.reverse_charge ? REVERSE_CHARGE_NOTE : null,
    pdfUrl: apiInvoicePdfUrl(appUrl, row.id),
  };
}

/**
 * GET /api/v1/invoices: the seller's documents (the newest version of each), newest first, a page at a
 * time, through the dashboard's own list (documentsPage); `from` included and `to` excluded, as the
 * sales list takes them.
 */
export async function listApiInvoices(
  db: Database,
  sellerId: string,
  query: ApiInvoicesQuery,
  appUrl: string,
): Promise<ApiInvoicePage> {
  const { rows, nextCursor } = await documentsPage(db, sellerId, {
    start: query.from ? parseApiDate(query.from) : undefined,
    end: query.to ? parseApiDate(query.to) : undefined,
    kind: query.kind,
    orderId: query.orderId,
    cursor: query.before,
    limit: query.limit,
  });
  return { invoices: rows.map((row) => apiInvoiceOf(row, appUrl)), nextCursor };
}

/** GET /api/v1/invoices/{id}: one of the seller's documents (any version); another seller's is a 404. */
export async function getApiInvoice(
  db: Database,
  sellerId: string,
  id: string,
  appUrl: string,
): Promise<ApiInvoice> {
  return apiInvoiceOf(await sellerDocument(db, sellerId, id), appUrl);
}

/** The invoice (its newest version's id and number) of each of the seller's orders that has one. */
export async function invoiceRefsOfOrders(
  db: Database,
  sellerId: string,
  orderIds: readonly string[],
): Promise<Map<string, { id: string; number: string }>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("invoices")
    .select(["order_id", "id", "number_text"])
    .distinctOn("order_id")
    .where("seller_id", "=", sellerId)
    // One array parameter, so a page of any length is one statement text (prepared once per connection).
    .where((eb) => eb("order_id", "=", eb.fn.any(eb.val(orderIds))))
    .where("kind", "=", "invoice")
    .orderBy("order_id")
    .orderBy("version", "desc")
    .execute();
  return new Map(rows.map((row) => [row.order_id, { id: row.id, number: row.number_text }]));
}
