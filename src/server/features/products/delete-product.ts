import { MEMBERSHIP_MESSAGES } from "../../../contracts/memberships";
import { PRODUCT_MESSAGES } from "../../../contracts/products";
import { commitChange } from "../../adapters/events/commit-change";
import { PUBLIC_PAGES_CHANGED } from "../../adapters/events/event-bus";
import { AppError, notFound } from "../../http/errors";
import { deleteObjectsOf, deleteStoredFile } from "../uploads";
import type { ProductDeps } from "./create-product";
import { hasLiveMembers } from "./membership-tiers";
import { removeAllProductFiles } from "./product-files";

/**
 * Deletes a seller's own product and then its files. Another seller's product id answers 404,
 * exactly like a missing one. Orders keep their own snapshot of title and amount.
 */
export async function deleteProduct(deps: ProductDeps, sellerId: string, productId: string): Promise<void> {
  const { coverUploadId, files } = await commitChange(deps, async (trx, announce) => {
    announce(sellerId, PUBLIC_PAGES_CHANGED);
    const product = await trx
      .selectFrom("products")
      .select("cover_upload_id")
      .where("id", "=", productId)
      .where("user_id", "=", sellerId)
      .forUpdate()
      .executeTakeFirst();
    if (!product) throw notFound(PRODUCT_MESSAGES.notFound);
    // A membership with members is closed to new ones and its memberships canceled first.
    if (await hasLiveMembers(trx, productId)) {
      throw new AppError("has_active_members", 409, MEMBERSHIP_MESSAGES.hasActiveMembers);
    }
    // The file rows first, with their uploads' rows: an upload can't go while a file row references it.
    const files = await removeAllProductFiles(trx, sellerId, productId);
    await trx.deleteFrom("products").where("id", "=", productId).execute();
    return { coverUploadId: product.cover_upload_id, files };
  });
  for (const upload of files) await deleteObjectsOf(deps.storage, upload);
  if (coverUploadId) await deleteStoredFile(deps, sellerId, coverUploadId);
}
