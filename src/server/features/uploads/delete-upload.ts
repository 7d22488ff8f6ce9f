import { AppError, notFound } from "../../http/errors";
import type { UploadDeps } from "./create-upload-intent";
import { deleteSellerUploadRow, findSellerUpload } from "./queries";
import { deleteObjectsOf } from "./stored-objects";

/**
 * DELETE /api/uploads/:id: a seller drops an upload they no longer need (a pending one, or a checked file
 * not yet used by a product). Files a product uses go with the product, through deleteStoredFile.
 */
export async function deleteUnusedUpload(
  deps: UploadDeps,
  sellerId: string,
  uploadId: string,
): Promise<void> {
  const upload = await findSellerUpload(deps.db, sellerId, uploadId);
  if (!upload) throw notFound("Upload not found");
  if (upload.status === "attached") {
    throw new AppError("upload_in_use", 409, "This file belongs to a product. Delete the product instead.");
  }
  await deleteStoredFile(deps, sellerId, uploadId);
}

/**
 * Removes an upload of this seller and every object it owns, whatever its state. The products feature
 * calls it when a product is deleted. The row goes first, so a failed object delete never leaves a
 * row pointing at nothing (at worst an orphan object). Unknown ids are ignored.
 */
export async function deleteStoredFile(deps: UploadDeps, sellerId: string, uploadId: string): Promise<void> {
  const deleted = await deleteSellerUploadRow(deps.db, sellerId, uploadId);
  if (deleted) await deleteObjectsOf(deps.storage, deleted);
}
