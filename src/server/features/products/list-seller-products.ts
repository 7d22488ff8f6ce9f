import type { Database } from "../../db/database";
import { toSellerProduct } from "./product-shapes";

/** The seller's own products, newest first, and how many they have in all. */
export async function listSellerProducts(db: Database, sellerId: string, limit: number) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom("products")
      .selectAll()
      .where("user_id", "=", sellerId)
      .orderBy("created_at", "desc")
      .orderBy("id")
      .limit(limit)
      .execute(),
    db
      .selectFrom("products")
      .select((eb) => eb.fn.countAll<number>().as("total"))
      .where("user_id", "=", sellerId)
      .executeTakeFirstOrThrow(),
  ]);
  return { products: rows.map(toSellerProduct), total: Number(count.total) };
}
