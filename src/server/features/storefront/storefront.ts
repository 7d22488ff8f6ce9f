import type { Storefront } from "../../../contracts/products";
import type { Database } from "../../db/database";
import { notFound } from "../../http/errors";
import { findPublicSeller } from "../billing";
import { productRows, storeMoved, storeUnavailable, toPublicProduct } from "../products";

const STOREFRONT_PRODUCT_LIMIT = 200;

/** A seller's public store: their profile and active products, newest first. */
export async function getStorefront(db: Database, sellerId: string, now: Date): Promise<Storefront> {
  const seller = await findPublicSeller(db, sellerId, now);
  if (seller?.movedTo) throw storeMoved(seller.movedTo);
  if (seller?.enforcement === "suspended") throw storeUnavailable();
  if (!seller?.pagesPublic) throw notFound("Store not found");
  const rows = await productRows(db)
    .where("products.user_id", "=", sellerId)
    .where("products.is_active", "=", true)
    // A product an operator took down is not listed (its own page says it is unavailable).
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("enforcement_actions")
            .select("enforcement_actions.id")
            .whereRef("enforcement_actions.product_id", "=", "products.id")
            .where("enforcement_actions.lifted_at", "is", null)
            .where("enforcement_actions.kind", "=", "take-down"),
        ),
      ),
    )
    .orderBy("products.created_at", "desc")
    .orderBy("products.id")
    .limit(STOREFRONT_PRODUCT_LIMIT)
    .execute();
  return {
    seller: {
      id: seller.id,
      storeName: seller.storeName,
      pictureUrl: seller.pictureUrl,
      taxNote: seller.taxNote,
      tagline: seller.storeTagline,
      description: seller.storeDescription,
    },
    products: rows.map((row) => toPublicProduct(row, seller.canSell)),
  };
}
