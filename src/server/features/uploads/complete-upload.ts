import {
  BYTES_PER_MB,
  type CompletedUpload,
  claimedFormat,
  MAX_COVER_IMAGE_MB,
  MAX_PRODUCT_FILE_MB,
  MAX_PROFILE_PICTURE_MB,
  PRODUCT_FILE_FORMATS,
  UPLOAD_MESSAGES,
} from "../../../contracts/uploads";
import type { BucketName } from "../../adapters/storage/storage";
import { AppError, badRequest, notFound } from "../../http/errors";
import type { VirusScanner } from "./clamav";
import type { UploadDeps } from "./create-upload-intent";
import { inspectImage, inspectProductFile, invalidFile, type StoredObject } from "./inspect-content";
import { findSellerUpload, type UploadRow } from "./queries";
import { renderCoverImages, renderProfilePicture } from "./render-images";
import { deleteObjectsOf, describeCompletedUpload } from "./stored-objects";
import { coverImageKeys, keyExtension, newObjectKey, profilePictureKey } from "./upload-keys";

export interface CompleteUploadDeps extends UploadDeps {
  /** clamd when CLAMD_URL is configured; without it the built-in checks still run. */
  virusScanner?: VirusScanner;
}

/** Time a completion has to finish its checks before the janitor may treat the upload as abandoned. */
const CHECKING_GRACE_MS = 15 * 60_000;

/** What a checked upload became: where it is stored, at what size and type. */
interface StoredResult {
  bucket: BucketName;
  key: string;
  thumbnailKey?: string;
  sizeBytes: number;
  contentType: string;
}

/**
 * Checks the bytes the browser sent (size, real content, programs, malware), then records the file;
 * covers and profile pictures are re-rendered into the public bucket. Any refusal deletes the bytes
 * and the row, so nothing is left behind. Completing twice answers the same result.
 */
export async function completeUpload(
  deps: CompleteUploadDeps,
  sellerId: string,
  uploadId: string,
  now = new Date(),
): Promise<CompletedUpload> {
  const upload = await claimForChecking(deps, sellerId, uploadId, now);
  if (upload.status !== "pending") return describeCompletedUpload(deps.storage, upload);

  const uploaded = await deps.storage.stat("product-files", upload.upload_key);
  if (!uploaded) {
    throw badRequest(
      "The file has not been uploaded yet. Please upload it, then try again.",
      "upload_missing",
    );
  }
  let current = upload;
  try {
    checkUploadedSize(upload, uploaded.sizeBytes);
    current = await moveOutOfLinkReach(deps, upload, now);
    const source = {
      bucket: "product-files" as const,
      key: current.storage_key ?? current.upload_key,
      sizeBytes: uploaded.sizeBytes,
    };
    const stored = await storeCheckedFile(deps, current, source);
    const completed = await recordCompleted(deps, current, stored, now);
    return describeCompletedUpload(deps.storage, completed);
  } catch (error) {
    if (error instanceof AppError && error.status < 500) await discard(deps, current);
    throw error;
  }
}

/**
 * The signed upload link stays valid for its hour, so the bytes are moved to a fresh key before any
 * check: a later PUT to the link can never replace a file that was checked.
 */
async function moveOutOfLinkReach({ db, storage }: UploadDeps, upload: UploadRow, now: Date) {
  const checkedKey = newObjectKey(upload.seller_id, keyExtension(upload.original_name), now);
  await storage.move("product-files", upload.upload_key, checkedKey);
  return db
    .updateTable("uploads")
    .set({ bucket: "product-files", storage_key: checkedKey })
    .where("id", "=", upload.id)
    .where("seller_id", "=", upload.seller_id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The seller's upload, with a pending one's expiry pushed past the time its checks may take. */
async function claimForChecking({ db, storage }: UploadDeps, sellerId: string, uploadId: string, now: Date) {
  const claimed = await db
    .updateTable("uploads")
    .set({ expires_at: new Date(now.getTime() + CHECKING_GRACE_MS) })
    .where("id", "=", uploadId)
    .where("seller_id", "=", sellerId)
    .where("status", "=", "pending")
    .where("expires_at", ">", now)
    .returningAll()
    .executeTakeFirst();
  if (claimed) return claimed;

  const upload = await findSellerUpload(db, sellerId, uploadId);
  if (!upload) throw notFound("Upload not found");
  if (upload.status === "pending") {
    await discard({ db, storage }, upload);
    throw badRequest("This upload has expired. Please upload the file again.", "upload_expired");
  }
  return upload;
}

function checkUploadedSize(upload: UploadRow, sizeBytes: number): void {
  const tooLarge = {
    "product-file":
      sizeBytes > MAX_PRODUCT_FILE_MB * BYTES_PER_MB && UPLOAD_MESSAGES.productFileTooLarge(sizeBytes),
    "product-cover":
      sizeBytes > MAX_COVER_IMAGE_MB * BYTES_PER_MB && UPLOAD_MESSAGES.coverImageTooLarge(sizeBytes),
    "profile-picture":
      sizeBytes >= MAX_PROFILE_PICTURE_MB * BYTES_PER_MB && UPLOAD_MESSAGES.profilePictureTooLarge,
  }[upload.purpose];
  if (tooLarge) throw new AppError("file_too_large", 400, tooLarge);
  if (sizeBytes !== upload.declared_size_bytes) {
    throw invalidFile(
      `The file received (${sizeBytes} bytes) is not the size announced (${upload.declared_size_bytes} bytes). Please try again.`,
    );
  }
}

async function storeCheckedFile(
  { storage, virusScanner }: CompleteUploadDeps,
  upload: UploadRow,
  source: StoredObject,
): Promise<StoredResult> {
  if (upload.purpose === "product-file") {
    const claimed = claimedFormat(PRODUCT_FILE_FORMATS, {
      name: upload.original_name,
      type: upload.declared_type,
    });
    if (!claimed) throw invalidFile(UPLOAD_MESSAGES.productFileInvalidType);
    const { contentType } = await inspectProductFile(storage, source, claimed, virusScanner);
    return { bucket: "product-files", key: source.key, sizeBytes: source.sizeBytes, contentType };
  }

  await inspectImage(storage, source, virusScanner);
  if (upload.purpose === "product-cover") {
    const keys = coverImageKeys(source.key);
    const { sizeBytes } = await renderCoverImages(storage, source, keys);
    await storage.delete(source.bucket, source.key);
    return {
      bucket: "product-covers",
      key: keys.openGraph,
      thumbnailKey: keys.thumbnail,
      sizeBytes,
      contentType: "image/jpeg",
    };
  }
  const key = profilePictureKey(upload.seller_id, upload.id);
  const { sizeBytes } = await renderProfilePicture(storage, source, key);
  await storage.delete(source.bucket, source.key);
  return { bucket: "product-covers", key, sizeBytes, contentType: "image/webp" };
}

async function recordCompleted({ db }: UploadDeps, upload: UploadRow, stored: StoredResult, now: Date) {
  return db.transaction().execute(async (trx) => {
    return trx
      .updateTable("uploads")
      .set({
        status: "completed",
        bucket: stored.bucket,
        storage_key: stored.key,
        thumbnail_key: stored.thumbnailKey ?? null,
        size_bytes: stored.sizeBytes,
        content_type: stored.contentType,
        completed_at: now,
      })
      .where("id", "=", upload.id)
      .where("seller_id", "=", upload.seller_id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** A refused or expired upload leaves nothing: its bytes, anything made from them, and its row. */
async function discard({ db, storage }: UploadDeps, upload: UploadRow): Promise<void> {
  await deleteObjectsOf(storage, upload);
  await db
    .deleteFrom("uploads")
    .where("id", "=", upload.id)
    .where("seller_id", "=", upload.seller_id)
    .execute();
}
