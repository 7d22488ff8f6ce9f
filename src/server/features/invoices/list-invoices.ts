import { type SelectQueryBuilder, sql } from "kysely";
import { INVOICE_RULES, type InvoiceKind, type InvoicesPage } from "../../../contracts/invoices";
import type { Database } from "../../db/database";
import { pageLimit } from "../../db/page-limit";
import type { DB } from "../../db/schema";
import { decodeCursor, encodeCursor } from "../../http/keyset-cursor";
import type { InvoiceRow } from "./invoice-pdf";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A period of UTC days, both ends included (the dashboard's list and export). */
export interface Period {
  from?: string | undefined;
  to?: string | undefined;
}

/** Bounds of issued_at: `start` included, `end` excluded. */
export interface IssuedRange {
  start?: Date | undefined;
  end?: Date | undefined;
}

/** A period of days as the bounds of issued_at: from its first midnight to the midnight after its last day. */
export const dayRange = (period: Period): IssuedRange => ({
  start: period.from ? new Date(`${period.from}T00:00:00Z`) : undefined,
  end: period.to ? new Date(Date.parse(`${period.to}T00:00:00Z`) + DAY_MS) : undefined,
});

/** A seller's documents in a range, newest version of each number only (a correction replaces it). */
export function periodDocuments(db: Database, sellerId: string, range: IssuedRange) {
  let query = db
    .selectFrom("invoices")
    .where("invoices.seller_id", "=", sellerId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("invoices as newer")
            .select(sql.lit(1).as("one"))
            .whereRef("newer.seller_id", "=", "invoices.seller_id")
            .whereRef("newer.kind", "=", "invoices.kind")
            .whereRef("newer.number", "=", "invoices.number")
            .whereRef("newer.version", ">", "invoices.version"),
        ),
      ),
    );
  if (range.start) query = query.where("invoices.issued_at", ">=", range.start);
  if (range.end) query = query.where("invoices.issued_at", "<", range.end);
  return query as SelectQueryBuilder<DB, "invoices", object>;
}

/** What a page of documents is chosen by: the range, a kind, one order, where the last page ended. */
export interface DocumentFilter extends IssuedRange {
  kind?: InvoiceKind | undefined;
  orderId?: string | undefined;
  /** The previous page's `nextCursor`. */
  cursor?: string | undefined;
  limit: number;
}

/**
 * One page of a seller's documents (the newest version of each), newest first, with a keyset cursor on
 * (issued_at, id) that the index `invoices (seller_id, issued_at desc, id desc)` answers: the dashboard's
 * list and the seller API both read through it.
 */
export async function documentsPage(
  db: Database,
  sellerId: string,
  filter: DocumentFilter,
): Promise<{ rows: (InvoiceRow & { product_title: string | null })[]; nextCursor: string | null }> {
  let query = periodDocuments(db, sellerId, filter)
    .leftJoin("orders", "orders.id", "invoices.order_id")
    .selectAll("invoices")
    .select("orders.product_title")
    .orderBy("invoices.issued_at", "desc")
    .orderBy("invoices.id", "desc")
    .limit(pageLimit(filter.limit + 1));
  if (filter.kind) query = query.where("invoices.kind", "=", filter.kind);
  if (filter.orderId) query = query.where("invoices.order_id", "=", filter.orderId);
  if (filter.cursor) {
    const { createdAt: issuedAt, id } = decodeCursor(filter.cursor);
    query = query.where(({ or, and, eb }) =>
      or([
        eb("invoices.issued_at", "<", issuedAt),
        and([eb("invoices.issued_at", "=", issuedAt), eb("invoices.id", "<", id)]),
      ]),
    );
  }
  const rows = await query.execute();
  const page = rows.slice(0, filter.limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor: rows.length > filter.limit && last ? encodeCursor(last.issued_at, last.id) : null,
  };
}

/** GET /api/invoices: one page of the seller's invoices and credit notes, newest first (keyset cursor). */
export async function listInvoices(
  db: Database,
  sellerId: string,
  filter: Period & { kind?: InvoiceKind | undefined; cursor?: string | undefined },
): Promise<InvoicesPage> {
  const { rows, nextCursor } = await documentsPage(db, sellerId, {
    ...dayRange(filter),
    kind: filter.kind,
    cursor: filter.cursor,
    limit: INVOICE_RULES.pageSize,
  });
  return {
    invoices: rows.map((row) => ({
      id: row.id,
      orderId: row.order_id,
      kind: row.kind,
      numberText: row.number_text,
      version: row.version,
      issuedAt: row.issued_at.toISOString(),
      buyer: row.buyer.businessName ?? row.buyer.name ?? row.buyer.email ?? "",
      productTitle: row.lines[0]?.description ?? row.product_title ?? "",
      totalCents: row.total_cents,
      taxCents: row.tax_cents,
      currency: row.currency,
      pdfPath: `/api/invoices/${row.id}.pdf`,
    })),
    nextCursor,
  };
}
