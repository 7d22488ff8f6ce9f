import type { Database } from "../../db/database";
import { pageLimit } from "../../db/page-limit";
import { decodeCursor, encodeCursor } from "../../http/keyset-cursor";
import { productRows } from "./product-files";
import { toSellerProduct } from "./product-shapes";

/**
 * The seller's own products, newest first, and how many they have in all. `before` (a `nextCursor`)
 * answers the next page: the dashboard shows the first, the seller API pages through all of them.
 */
export async function listSellerProducts(db: Database, sellerId: string, limit: number, before?: string) {
  let page = productRows(db).where("products.user_id", "=", sellerId);
  if (before) {
    const cursor = decodeCursor(before);
    page = page.where((eb) =>
      eb.or([
        eb("products.created_at", "<", cursor.createdAt),
        eb.and([eb("products.created_at", "=", cursor.createdAt), eb("products.id", ">", cursor.id)]),
      ]),
    );
  }
  const [rows, count] = await Promise.all([
    page
      .orderBy("products.created_at", "desc")
      .orderBy("products.id")
      .limit(pageLimit(limit + 1))
      .execute(),
    db
      .selectFrom("products")
      .select((eb) => eb.fn.countAll<number>().as("total"))
      .where("user_id", "=", sellerId)
      .executeTakeFirstOrThrow(),
  ]);
  const products = rows.slice(0, limit);
  const last = products.at(-1);
  return {
    products: products.map(toSellerProduct),
    total: Number(count.total),
    nextCursor: rows.length > limit && last ? encodeCursor(last.created_at, last.id) : null,
  };
}
