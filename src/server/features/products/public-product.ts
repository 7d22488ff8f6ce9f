import { ENFORCEMENT_BUYER_MESSAGES } from "../../../contracts/enforcement";
import { PRODUCT_MESSAGES, type PublicProduct } from "../../../contracts/products";
import type { Database } from "../../db/database";
import { queryTemplate } from "../../db/query-templates";
import { AppError, notFound } from "../../http/errors";
import { findPublicSeller } from "../billing";
import { productRows } from "./product-files";
import { toPublicProduct } from "./product-shapes";

/** An active product by id, with its take-down in force if any (compiled once: see queryTemplate). */
const activeProductQuery = queryTemplate((db, params: { productId: string }) =>
  productRows(db)
    .leftJoin("enforcement_actions as take_down", (join) =>
      join
        .onRef("take_down.product_id", "=", "products.id")
        .on("take_down.lifted_at", "is", null)
        .on("take_down.kind", "=", "take-down"),
    )
    .select("take_down.id as take_down_id")
    .where("products.id", "=", params.productId)
    .where("products.is_active", "=", true),
);

/** A store suspended by an operator, or a product taken down (docs/operator.md): 403, "unavailable". */
export const storeUnavailable = () =>
  new AppError("store_unavailable", 403, ENFORCEMENT_BUYER_MESSAGES.storeUnavailable);
export const productUnavailable = () =>
  new AppError("product_unavailable", 403, ENFORCEMENT_BUYER_MESSAGES.productUnavailable);

/**
 * A store whose creator moved it (docs/store-import.md): its pages redirect to `location`, every checkout
 * is refused with where it went. The product keeps its id at the new store (an archive import keeps ids).
 */
export const storeMoved = (location: string) =>
  new AppError("store_moved", 410, `This store has moved to ${location}`, { location });

/** Where a product of a moved store is now: the same path at the new store's address. */
export const movedProductUrl = (movedTo: string, productId: string) =>
  new URL(`/product/${encodeURIComponent(productId)}`, movedTo).toString();

/**
 * A product page's data. Missing, inactive, or of a seller whose pages are no longer public: 404. Of a
 * suspended store, or taken down by an operator: 403 `store_unavailable` / `product_unavailable` (so
 * nothing can buy it either: every checkout starts here).
 */
export async function getPublicProduct(db: Database, productId: string, now: Date): Promise<PublicProduct> {
  const [row] = await activeProductQuery.execute(db, { productId });
  const seller = row ? await findPublicSeller(db, row.user_id, now) : undefined;
  if (row && seller?.movedTo) throw storeMoved(movedProductUrl(seller.movedTo, productId));
  if (row && seller?.enforcement === "suspended") throw storeUnavailable();
  if (!row || !seller?.pagesPublic) throw notFound(PRODUCT_MESSAGES.notFound);
  if (row.take_down_id !== null) throw productUnavailable();
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
