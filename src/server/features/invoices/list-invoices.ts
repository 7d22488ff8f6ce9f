import { type SelectQueryBuilder, sql } from "kysely";
import { INVOICE_RULES, type InvoiceKind, type InvoicesPage } from "../../../contracts/invoices";
import type { Database } from "../../db/database";
import type { DB } from "../../db/schema";
import { badRequest } from "../../http/errors";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A period of UTC days, both ends included, as the bounds of issued_at. */
export interface Period {
  from?: string | undefined;
  to?: string | undefined;
}

/** A seller's documents in a period, newest version of each number only (a correction replaces it). */
export function periodDocuments(db: Database, sellerId: string, period: Period) {
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
  if (period.from) query = query.where("invoices.issued_at", ">=", new Date(`${period.from}T00:00:00Z`));
  if (period.to) {
    query = query.where("invoices.issued_at", "<", new Date(Date.parse(`${period.to}T00:00:00Z`) + DAY_MS));
  }
  return query as SelectQueryBuilder<DB, "invoices", object>;
}

const encodeCursor = (issuedAt: Date, id: string) =>
  Buffer.from(`${issuedAt.toISOString()}|${id}`).toString("base64url");

function decodeCursor(cursor: string): { issuedAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const issuedAt = new Date(at ?? "");
  if (!id || Number.isNaN(issuedAt.getTime())) throw badRequest("Invalid cursor");
  return { issuedAt, id };
}

/** GET /api/invoices: one page of the seller's invoices and credit notes, newest first (keyset cursor). */
export async function listInvoices(
  db: Database,
  sellerId: string,
  filter: Period & { kind?: InvoiceKind | undefined; cursor?: string | undefined },
): Promise<InvoicesPage> {
  let query = periodDocuments(db, sellerId, filter)
    .leftJoin("orders", "orders.id", "invoices.order_id")
    .select([
      "invoices.id",
      "invoices.order_id",
      "invoices.kind",
      "invoices.number_text",
      "invoices.version",
      "invoices.issued_at",
      "invoices.buyer",
      "invoices.lines",
      "invoices.total_cents",
      "invoices.tax_cents",
      "invoices.currency",
      "orders.product_title",
    ])
    .orderBy("invoices.issued_at", "desc")
    .orderBy("invoices.id", "desc")
    .limit(INVOICE_RULES.pageSize + 1);
  if (filter.kind) query = query.where("invoices.kind", "=", filter.kind);
  if (filter.cursor) {
    const { issuedAt, id } = decodeCursor(filter.cursor);
    query = query.where(({ or, and, eb }) =>
      or([
        eb("invoices.issued_at", "<", issuedAt),
        and([eb("invoices.issued_at", "=", issuedAt), eb("invoices.id", "<", id)]),
      ]),
    );
  }
  const rows = await query.execute();
  const page = rows.slice(0, INVOICE_RULES.pageSize);
  const last = page.at(-1);
  return {
    invoices: page.map((row) => ({
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
    nextCursor: rows.length > INVOICE_RULES.pageSize && last ? encodeCursor(last.issued_at, last.id) : null,
  };
}
