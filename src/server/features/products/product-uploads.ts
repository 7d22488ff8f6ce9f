import type { Updateable } from "kysely";
import type { ProductField } from "../../../contracts/products";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import type { ProductTable, PublicCoverVariant, StoredCoverVariant } from "../../db/schema";
import { AppError } from "../../http/errors";
import type { UploadRow } from "../uploads";
import { attachUpload } from "../uploads";

const FIELD_OF_PURPOSE = {
  "product-file": "files",
  "product-cover": "coverUploadId",
} as const satisfies Record<string, ProductField>;

/**
 * attachUpload for a product's file or cover; a refusal names the form field it is about, so the
 * form shows the message next to that field.
 */
export async function attachProductUpload(
  trx: Database,
  sellerId: string,
  uploadId: string,
  purpose: keyof typeof FIELD_OF_PURPOSE,
): Promise<UploadRow> {
  try {
    return await attachUpload(trx, sellerId, uploadId, purpose);
  } catch (error) {
    if (error instanceof AppError) {
      throw new AppError(error.code, error.status, error.userMessage, { field: FIELD_OF_PURPOSE[purpose] });
    }
    throw error;
  }
}

/** A cover's sizes at their public addresses, as pages show them. */
const publicCoverVariants = (storage: Storage, variants: StoredCoverVariant[]): PublicCoverVariant[] =>
  variants.map(({ key, width, height }) => ({ url: storage.publicUrl(key), width, height }));

/** The product columns that describe its cover: its sizes at their public addresses, or none. */
export function productCoverColumns(storage: Storage, cover: UploadRow | null) {
  return {
    cover_upload_id: cover?.id ?? null,
    cover_image_url: cover?.storage_key ? storage.publicUrl(cover.storage_key) : null,
    cover_thumbnail_url: cover?.thumbnail_key ? storage.publicUrl(cover.thumbnail_key) : null,
    cover_variants: cover?.cover_variants
      ? JSON.stringify(publicCoverVariants(storage, cover.cover_variants))
      : null,
  } satisfies Updateable<ProductTable>;
}
