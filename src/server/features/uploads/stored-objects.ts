import type { CompletedUpload } from "../../../contracts/uploads";
import type { BucketName, Storage } from "../../adapters/storage/storage";
import type { UploadRow } from "./queries";

/**
 * Every object an upload row may own: the bytes its link wrote, the image being rendered, and the stored
 * file with its thumbnail and cover sizes. Keys are recorded before anything is written under them, so
 * this is complete.
 */
function objectsOf(upload: UploadRow): { bucket: BucketName; key: string }[] {
  const objects: { bucket: BucketName; key: string }[] = [
    { bucket: "product-files", key: upload.upload_key },
  ];
  if (upload.source_key) objects.push({ bucket: "product-files", key: upload.source_key });
  if (upload.bucket && upload.storage_key && upload.storage_key !== upload.upload_key) {
    objects.push({ bucket: upload.bucket, key: upload.storage_key });
  }
  // A new cover's thumbnail is one of its sizes: each key is listed once.
  const coverKeys = new Set([
    ...(upload.thumbnail_key ? [upload.thumbnail_key] : []),
    ...(upload.cover_variants ?? []).map((variant) => variant.key),
  ]);
  for (const key of coverKeys) objects.push({ bucket: "product-covers", key });
  return objects;
}

export async function deleteObjectsOf(storage: Storage, upload: UploadRow): Promise<void> {
  await Promise.all(objectsOf(upload).map(({ bucket, key }) => storage.delete(bucket, key)));
}

/** The API's view of a completed upload. */
export function describeCompletedUpload(storage: Storage, upload: UploadRow): CompletedUpload {
  const key = upload.storage_key ?? upload.upload_key;
  const isPublic = upload.bucket === "product-covers";
  return {
    uploadId: upload.id,
    key,
    sizeBytes: upload.size_bytes ?? 0,
    contentType: upload.content_type ?? "application/octet-stream",
    originalName: upload.original_name,
    ...(isPublic ? { publicUrl: storage.publicUrl(key) } : {}),
    ...(upload.thumbnail_key ? { thumbnailUrl: storage.publicUrl(upload.thumbnail_key) } : {}),
  };
}
