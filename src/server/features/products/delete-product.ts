import { PRODUCT_MESSAGES } from "../../../contracts/products";
import { notFound } from "../../http/errors";
import { deleteStoredFile } from "../uploads/delete-upload";
import type { ProductDeps } from "./create-product";

/**
 * Deletes a seller's own product and then its files. Another seller's product id answers 404,
 * exactly like a missing one. Orders keep their own snapshot of title and amount.
 */
export async function deleteProduct(deps: ProductDeps, sellerId: string, productId: string): Promise<void> {
  const deleted = await deps.db
    .deleteFrom("products")
    .where("id", "=", productId)
    .where("user_id", "=", sellerId)
    .returning(["file_upload_id", "cover_upload_id"])
    .executeTakeFirst();
  if (!deleted) throw notFound(PRODUCT_MESSAGES.notFound);
  await deleteStoredFile(deps, sellerId, deleted.file_upload_id);
  if (deleted.cover_upload_id) await deleteStoredFile(deps, sellerId, deleted.cover_upload_id);
}
