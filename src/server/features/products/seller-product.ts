import { PRODUCT_MESSAGES, type SellerProductDetail } from "../../../contracts/products";
import type { Database } from "../../db/database";
import { notFound } from "../../http/errors";
import { listProductFiles, productRows } from "./product-files";
import { toSellerProductDetail, type UnitsTaken } from "./product-shapes";

/**
 * The units a checkout took from the product's stock and still has (stock.ts): a unit is held while its
 * checkout is open and confirmed once paid; one given back is released and no longer counts. Units
 * sold while the product was unlimited were never taken, so they do not count either.
 */
export async function unitsTaken(db: Database, productId: string): Promise<UnitsTaken> {
  const counts = await db
    .selectFrom("checkouts")
    .select((eb) => [
      eb.fn.countAll<string>().filterWhere("reservation", "=", "confirmed").as("sold"),
      eb.fn.countAll<string>().filterWhere("reservation", "=", "held").as("held"),
    ])
    .where("product_id", "=", productId)
    .where("reservation", "in", ["held", "confirmed"])
    .executeTakeFirstOrThrow();
  return { sold: Number(counts.sold), held: Number(counts.held) };
}

/** One of the seller's own products, for its edit page; another seller's answers 404 like a missing one. */
export async function getSellerProduct(
  db: Database,
  sellerId: string,
  productId: string,
): Promise<SellerProductDetail> {
  const row = await productRows(db)
    .where("products.id", "=", productId)
    .where("products.user_id", "=", sellerId)
    .executeTakeFirst();
  if (!row) throw notFound(PRODUCT_MESSAGES.notFound);
  const [taken, files] = await Promise.all([unitsTaken(db, productId), listProductFiles(db, productId)]);
  return toSellerProductDetail(row, taken, files);
}
