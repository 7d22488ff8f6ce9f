import { PRODUCT_MESSAGES, type PublicProduct } from "../../../contracts/products";
import type { Database } from "../../db/database";
import { notFound } from "../../http/errors";
import { findPublicSeller } from "../storefront/seller-visibility";
import { productRows } from "./product-files";
import { toPublicProduct } from "./product-shapes";

/** A product page's data. Missing, inactive, or of a seller whose pages are no longer public: 404. */
export async function getPublicProduct(db: Database, productId: string, now: Date): Promise<PublicProduct> {
  const row = await productRows(db)
    .where("products.id", "=", productId)
    .where("products.is_active", "=", true)
    .executeTakeFirst();
  const seller = row ? await findPublicSeller(db, row.user_id, now) : undefined;
  if (!row || !seller?.pagesPublic) throw notFound(PRODUCT_MESSAGES.notFound);
  return {
    // A product a buyer can get for $0 skips Stripe: the plan alone decides whether it can be had.
    ...toPublicProduct(row, seller.canSell || (row.price_cents === 0 && seller.planAllowsSales)),
    seller: { id: seller.id, storeName: seller.storeName, pictureUrl: seller.pictureUrl },
  };
}
