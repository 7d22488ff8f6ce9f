import { PRODUCT_MESSAGES, type PublicProduct } from "../../../contracts/products";
import type { Database } from "../../db/database";
import { queryTemplate } from "../../db/query-templates";
import { notFound } from "../../http/errors";
import { findPublicSeller } from "../billing";
import { productRows } from "./product-files";
import { toPublicProduct } from "./product-shapes";

/** An active product by id (compiled once: see queryTemplate). */
const activeProductQuery = queryTemplate((db, params: { productId: string }) =>
  productRows(db).where("products.id", "=", params.productId).where("products.is_active", "=", true),
);

/** A product page's data. Missing, inactive, or of a seller whose pages are no longer public: 404. */
export async function getPublicProduct(db: Database, productId: string, now: Date): Promise<PublicProduct> {
  const [row] = await activeProductQuery.execute(db, { productId });
  const seller = row ? await findPublicSeller(db, row.user_id, now) : undefined;
  if (!row || !seller?.pagesPublic) throw notFound(PRODUCT_MESSAGES.notFound);
  return {
    // A product a buyer can get for $0 skips Stripe: the plan alone decides whether it can be had.
    ...toPublicProduct(row, seller.canSell || (row.price_cents === 0 && seller.planAllowsSales)),
    seller: {
      id: seller.id,
      storeName: seller.storeName,
      pictureUrl: seller.pictureUrl,
      taxNote: seller.taxNote,
    },
  };
}
