import type { SalesPage } from "../../../contracts/orders";
import type { Database } from "../../db/database";
import { badRequest, notFound } from "../../http/errors";
import { salesTotals } from "./sales-totals";

/** `createdAtISO|orderId`: a keyset cursor, so page 500 costs what page 1 does. */
const encodeCursor = (createdAt: Date, id: string) =>
  Buffer.from(`${createdAt.toISOString()}|${id}`).toString("base64url");
function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const createdAt = new Date(iso ?? "");
  if (!id || Number.isNaN(createdAt.getTime())) throw badRequest("Invalid cursor");
  return { createdAt, id };
}

/** Customer Sales: the seller's own orders, newest first, one page at a time. */
export async function salesPage(
  db: Database,
  sellerId: string,
  limit: number,
  before?: string,
): Promise<SalesPage> {
  let query = db
    .selectFrom("orders")
    .select([
      "id",
      "customer_email",
      "product_title",
      "amount_cents",
      "created_at",
      "status",
      "downloads_used",
    ])
    .where("seller_id", "=", sellerId);
  if (before) {
    const cursor = decodeCursor(before);
    query = query.where((eb) =>
      eb.or([
        eb("created_at", "<", cursor.createdAt),
        eb.and([eb("created_at", "=", cursor.createdAt), eb("id", "<", cursor.id)]),
      ]),
    );
  }
  const [rows, totals] = await Promise.all([
    query
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(limit + 1)
      .execute(),
    salesTotals(db, sellerId),
  ]);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    sales: page.map((row) => ({
      id: row.id,
      customerEmail: row.customer_email,
      productTitle: row.product_title,
      amountCents: row.amount_cents,
      createdAt: row.created_at.toISOString(),
      status: row.status,
      downloadsUsed: row.downloads_used,
    })),
    total: totals.ordersCount,
    completed: totals.unitsSold,
    nextCursor: rows.length > limit && last ? encodeCursor(last.created_at, last.id) : null,
  };
}

/** The seller gives a buyer their 3 downloads back (e.g. after a failed download). */
export async function resetDownloads(db: Database, sellerId: string, orderId: string): Promise<void> {
  const reset = await db
    .updateTable("orders")
    .set({ downloads_used: 0 })
    .where("id", "=", orderId)
    .where("seller_id", "=", sellerId)
    .returning("id")
    .executeTakeFirst();
  if (!reset) throw notFound("Order not found");
}
