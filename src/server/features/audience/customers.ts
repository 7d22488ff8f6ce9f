import { sql } from "kysely";
import type { Customer, CustomersPage } from "../../../contracts/audience";
import type { Database } from "../../db/database";
import { emailSearchPattern } from "../../db/email-search";
import { pageLimit } from "../../db/page-limit";
import { planPerValues } from "../../db/plan-hints";
import { badRequest } from "../../http/errors";

/** `lastPurchaseISO|email`: a keyset cursor, as the sales list's, so page 500 costs what page 1 does. */
export const encodeCustomerCursor = (lastPurchaseAt: Date, email: string) =>
  Buffer.from(`${lastPurchaseAt.toISOString()}|${email}`).toString("base64url");

export function decodeCustomerCursor(cursor: string): { lastPurchaseAt: Date; email: string } {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const split = text.indexOf("|");
  const lastPurchaseAt = new Date(text.slice(0, split));
  const email = text.slice(split + 1);
  if (split < 0 || !email || Number.isNaN(lastPurchaseAt.getTime())) throw badRequest("Invalid cursor");
  return { lastPurchaseAt, email };
}

/**
 * The seller's customers, most recent buyer first, read from the roll-up (never from orders). A
 * search keeps the rows whose email contains the text (emails are stored lower-case), or starts with it
 * for 1-2 characters (`emailSearchPattern`).
 */
export function customerRows(
  db: Database,
  sellerId: string,
  options: { search?: string | undefined; after?: { lastPurchaseAt: Date; email: string } | undefined },
) {
  let query = db
    .selectFrom("customers as c")
    .leftJoin("email_unsubscribes as u", (join) =>
      join.onRef("u.seller_id", "=", "c.seller_id").onRef("u.email", "=", "c.email"),
    )
    .select([
      "c.email",
      "c.first_purchase_at",
      "c.last_purchase_at",
      "c.orders_count",
      "c.total_cents",
      "c.product_titles",
      sql<boolean>`u.email is not null`.as("unsubscribed"),
    ])
    .where("c.seller_id", "=", sellerId);
  const search = options.search?.trim().toLowerCase();
  if (search) {
    // Whether the index or the most-recent-first scan is faster depends on how many rows match, so the
    // statement is planned with its term each time rather than once for any term.
    query = query.where("c.email", "like", emailSearchPattern(search)).modifyEnd(planPerValues);
  }
  const after = options.after;
  if (after) {
    // A row comparison, answered from the (seller_id, last_purchase_at, email) index directly.
    query = query.where((eb) =>
      eb(eb.refTuple("c.last_purchase_at", "c.email"), "<", eb.tuple(after.lastPurchaseAt, after.email)),
    );
  }
  return query.orderBy("c.last_purchase_at", "desc").orderBy("c.email", "desc");
}

export async function customersPage(
  db: Database,
  sellerId: string,
  limit: number,
  options: { before?: string | undefined; search?: string | undefined },
): Promise<CustomersPage> {
  const after = options.before ? decodeCustomerCursor(options.before) : undefined;
  const [rows, total] = await Promise.all([
    customerRows(db, sellerId, { search: options.search, after })
      .limit(pageLimit(limit + 1))
      .execute(),
    db.selectFrom("customer_counts").select("customers").where("seller_id", "=", sellerId).executeTakeFirst(),
  ]);
  const customers = rows.slice(0, limit);
  const last = customers.at(-1);
  return {
    customers: customers.map(
      (row): Customer => ({
        email: row.email,
        firstPurchaseAt: row.first_purchase_at.toISOString(),
        lastPurchaseAt: row.last_purchase_at.toISOString(),
        ordersCount: row.orders_count,
        totalCents: Number(row.total_cents),
        products: row.product_titles,
        unsubscribed: row.unsubscribed,
      }),
    ),
    total: total?.customers ?? 0,
    nextCursor: rows.length > limit && last ? encodeCustomerCursor(last.last_purchase_at, last.email) : null,
  };
}
