import { randomBytes } from "node:crypto";
import type { NewProduct } from "../../../contracts/products";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import { assertCanManageProducts } from "../billing/seller-readiness";
import { type ProductRow, toSellerProduct } from "./product-shapes";
import { attachProductUpload, productCoverColumns, productFileColumns } from "./product-uploads";

export interface ProductDeps {
  db: Database;
  storage: Storage;
}

/** Short, unguessable, URL-safe: the id in every shared product link. */
const newProductId = () => randomBytes(9).toString("base64url");

/**
 * Creates a live product from checked uploads, in one transaction: if any upload is not this
 * seller's, not checked, or already used, nothing is created and nothing is attached.
 */
export async function createProduct(deps: ProductDeps, sellerId: string, input: NewProduct, now: Date) {
  await assertCanManageProducts(deps.db, sellerId, now);
  const row: ProductRow = await deps.db.transaction().execute(async (trx) => {
    const file = await attachProductUpload(trx, sellerId, input.fileUploadId, "product-file");
    const cover = input.coverUploadId
      ? await attachProductUpload(trx, sellerId, input.coverUploadId, "product-cover")
      : null;
    return trx
      .insertInto("products")
      .values({
        id: newProductId(),
        user_id: sellerId,
        title: input.title,
        description: input.description,
        price_cents: input.priceCents,
        price_mode: input.priceMode,
        suggested_price_cents: input.suggestedPriceCents,
        ...productFileColumns(file),
        ...productCoverColumns(deps.storage, cover),
        inventory_type: input.inventoryType,
        quantity_available: input.quantityAvailable,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return toSellerProduct(row);
}
