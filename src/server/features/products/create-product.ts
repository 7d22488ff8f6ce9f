import { randomBytes } from "node:crypto";
import type { NewProduct } from "../../../contracts/products";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import type { PublicCoverVariant, StoredCoverVariant } from "../../db/schema";
import { assertCanManageProducts } from "../billing/seller-readiness";
import { attachUpload } from "../uploads/attach-upload";
import { type ProductRow, toSellerProduct } from "./product-shapes";

export interface ProductDeps {
  db: Database;
  storage: Storage;
}

/** A cover's sizes at their public addresses, as pages show them. */
const publicCoverVariants = (storage: Storage, variants: StoredCoverVariant[]): PublicCoverVariant[] =>
  variants.map(({ key, width, height }) => ({ url: storage.publicUrl(key), width, height }));

/** Short, unguessable, URL-safe: the id in every shared product link. */
const newProductId = () => randomBytes(9).toString("base64url");

/**
 * Creates a live product from checked uploads, in one transaction: if any upload is not this
 * seller's, not checked, or already used, nothing is created and nothing is attached.
 */
export async function createProduct(deps: ProductDeps, sellerId: string, input: NewProduct, now: Date) {
  await assertCanManageProducts(deps.db, sellerId, now);
  const row: ProductRow = await deps.db.transaction().execute(async (trx) => {
    const file = await attachUpload(trx, sellerId, input.fileUploadId, "product-file");
    const cover = input.coverUploadId
      ? await attachUpload(trx, sellerId, input.coverUploadId, "product-cover")
      : null;
    return trx
      .insertInto("products")
      .values({
        id: newProductId(),
        user_id: sellerId,
        title: input.title,
        description: input.description,
        price_cents: input.priceCents,
        file_upload_id: file.id,
        cover_upload_id: cover?.id ?? null,
        file_name: file.original_name,
        file_size_bytes: file.size_bytes,
        file_type: file.content_type,
        cover_image_url: cover?.storage_key ? deps.storage.publicUrl(cover.storage_key) : null,
        cover_thumbnail_url: cover?.thumbnail_key ? deps.storage.publicUrl(cover.thumbnail_key) : null,
        cover_variants: cover?.cover_variants
          ? JSON.stringify(publicCoverVariants(deps.storage, cover.cover_variants))
          : null,
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
