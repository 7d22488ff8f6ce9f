import {
  BYTES_PER_MB,
  type CompletedUpload,
  MAX_COVER_IMAGE_MB,
  MAX_PRODUCT_FILE_MB,
  MAX_PROFILE_PICTURE_MB,
  UPLOAD_MESSAGES,
} from "../../../contracts/uploads";
import type { Database } from "../../db/database";
import type { StoredCoverVariant } from "../../db/schema";
import { AppError, badRequest, notFound } from "../../http/errors";
import type { VirusScanner } from "./clamav";
import type { UploadDeps } from "./create-upload-intent";
import { inspectImage, inspectProductFile, invalidFile, type StoredObject } from "./inspect-content";
import { findSellerUpload, type UploadRow } from "./queries";
import { storageFullAnswer } from "./storage-full";
import { deleteObjectsOf, describeCompletedUpload } from "./stored-objects";
import { coverImageKeys, keyExtension, newObjectKey, profilePictureKey } from "./upload-keys";

export interface CompleteUploadDeps extends UploadDeps {
  /** clamd when CLAMD_URL is configured; without it the built-in checks still run. */
  virusScanner?: VirusScanner;
}

/** Time a completion has to finish its checks before the janitor may treat the upload as abandoned. */
export const CHECKING_GRACE_MS = 15 * 60_000;

const uploadExpired = () =>
  badRequest("This upload has expired. Please upload the file again.", "upload_expired");

/**
 * Checks the bytes the browser sent (size, real content, programs, malware), then records the file;
 * covers and profile pictures are re-rendered into the public bucket. One call claims the upload (a
 * conditional update to 'checking'), so calls at the same time never check it twice: the others answer
 * that it is being checked, or, once it is done, the same result. Any failure deletes the bytes, what
 * was made from them, and the row, so nothing is left behind.
 */
export async function completeUpload(
  deps: CompleteUploadDeps,
  sellerId: string,
  uploadId: string,
  now = new Date(),
): Promise<CompletedUpload> {
  const upload = await findSellerUpload(deps.db, sellerId, uploadId);
  if (upload?.status !== "pending" || upload.expires_at <= now) return answerUnclaimable(deps, upload);
  const uploaded = await deps.storage.stat("product-files", upload.upload_key);
  if (!uploaded) {
    throw badRequest(
      "The file has not been uploaded yet. Please upload it, then try again.",
      "upload_missing",
    );
  }
  // A PUT begun before the claim may still land, and on S3 a signed link cannot be revoked at all: the
  // bytes are moved to a fresh key no link points at before any check, so a later PUT never swaps them.
  const checkedKey = newObjectKey(upload.seller_id, keyExtension(upload.original_name), now);
  const claimed = await claimForChecking(deps.db, upload, checkedKey, now);
  if (!claimed) return answerUnclaimable(deps, await findSellerUpload(deps.db, sellerId, uploadId));
  try {
    checkUploadedSize(claimed, uploaded.sizeBytes);
    await deps.storage.move("product-files", claimed.upload_key, checkedKey);
    const source = { bucket: "product-files" as const, key: checkedKey, sizeBytes: uploaded.sizeBytes };
    const stored = await storeCheckedFile(deps, claimed, source);
    return describeCompletedUpload(deps.storage, await recordCompleted(deps.db, claimed, stored, now));
  } catch (error) {
    // If even this fails, the janitor removes the row and its recorded keys once the checking time is over.
    await discard(deps, claimed).catch(() => {});
    throw storageFullAnswer(error);
  }
}

/**
 * What a call that cannot claim the upload answers: the stored result once it is completed (so
 * completing twice answers the same), that it is being checked, or that it expired (removing it).
 */
async function answerUnclaimable(deps: UploadDeps, upload: UploadRow | undefined): Promise<CompletedUpload> {
  if (!upload) throw notFound("Upload not found");
  if (upload.status === "checking") {
    throw new AppError("upload_checking", 409, "This upload is already being checked. Please wait a moment.");
  }
  if (upload.status === "pending") {
    await discard(deps, upload);
    throw uploadExpired();
  }
  return describeCompletedUpload(deps.storage, upload);
}

/**
 * Every key the checked file will be stored under, written on the row with the claim, before any byte
 * is moved or rendered: whatever fails later, cleanup (discard, the janitor) finds all of them.
 */
function plannedKeys(upload: UploadRow, checkedKey: string) {
  if (upload.purpose === "product-file") {
    return {
      bucket: "product-files",
      storage_key: checkedKey,
      thumbnail_key: null,
      cover_variants: null,
      source_key: null,
    } as const;
  }
  if (upload.purpose === "product-cover") {
    const { openGraph, variants } = coverImageKeys(checkedKey);
    return {
      bucket: "product-covers",
      storage_key: openGraph,
      // One of the sizes, chosen once they are made.
      thumbnail_key: null,
      cover_variants: JSON.stringify(variants),
      source_key: checkedKey,
    } as const;
  }
  return {
    bucket: "product-covers",
    storage_key: profilePictureKey(upload.seller_id, upload.id),
    thumbnail_key: null,
    cover_variants: null,
    source_key: checkedKey,
  } as const;
}

/** Moves a pending, unexpired upload to 'checking' with its planned keys; undefined when another call got it first. */
function claimForChecking(db: Database, upload: UploadRow, checkedKey: string, now: Date) {
  return db
    .updateTable("uploads")
    .set({
      status: "checking",
      expires_at: new Date(now.getTime() + CHECKING_GRACE_MS),
      ...plannedKeys(upload, checkedKey),
    })
    .where("id", "=", upload.id)
    .where("seller_id", "=", upload.seller_id)
    .where("status", "=", "pending")
    .where("expires_at", ">", now)
    .returningAll()
    .executeTakeFirst();
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

/** What was stored: its size (all rendered images together) and type, and a cover's sizes. */
interface StoredFile {
  sizeBytes: number;
  contentType: string;
  coverVariants?: StoredCoverVariant[];
}

async function storeCheckedFile(
  { storage, virusScanner }: CompleteUploadDeps,
  upload: UploadRow,
  source: StoredObject,
): Promise<StoredFile> {
  if (upload.purpose === "product-file") {
    const file = { name: upload.original_name, type: upload.declared_type };
    const { contentType } = await inspectProductFile(storage, source, file, virusScanner);
    return { sizeBytes: source.sizeBytes, contentType };
  }
  await inspectImage(storage, source, virusScanner);
  // sharp (native, 0.4 s to load) is loaded with the first image, not at start.
  const { renderCoverImages, renderProfilePicture } = await import("./render-images");
  let rendered: StoredFile;
  if (upload.purpose === "product-cover") {
    const { sizeBytes, variants } = await renderCoverImages(storage, source, coverImageKeys(source.key));
    rendered = { sizeBytes, contentType: "image/jpeg", coverVariants: variants };
  } else {
    const picture = await renderProfilePicture(
      storage,
      source,
      profilePictureKey(upload.seller_id, upload.id),
    );
    rendered = { ...picture, contentType: "image/webp" };
  }
  await storage.delete(source.bucket, source.key);
  return rendered;
}

/** How wide the thumbnail covers had before they had sizes: the library, downloads and dashboard show it. */
const THUMBNAIL_MIN_WIDTH = 600;

/** A cover's thumbnail is its first size at least that wide, or its largest when the image is narrower. */
const thumbnailOf = (variants: StoredCoverVariant[]) =>
  (variants.find((variant) => variant.width >= THUMBNAIL_MIN_WIDTH) ?? variants.at(-1))?.key ?? null;

/**
 * Done only if the upload is still being checked: its seller may have deleted it meanwhile. A cover's
 * planned sizes shrink to those made: nothing was written under the others.
 */
export async function recordCompleted(db: Database, upload: UploadRow, stored: StoredFile, now: Date) {
  const completed = await db
    .updateTable("uploads")
    .set({
      status: "completed",
      source_key: null,
      size_bytes: stored.sizeBytes,
      content_type: stored.contentType,
      completed_at: now,
      ...(stored.coverVariants
        ? {
            cover_variants: JSON.stringify(stored.coverVariants),
            thumbnail_key: thumbnailOf(stored.coverVariants),
          }
        : {}),
    })
    .where("id", "=", upload.id)
    .where("status", "=", "checking")
    .returningAll()
    .executeTakeFirst();
  if (!completed) throw uploadExpired();
  return completed;
}

/** A refused or expired upload leaves nothing: its bytes, anything made from them, and its row. */
export async function discard({ db, storage }: UploadDeps, upload: UploadRow): Promise<void> {
  await deleteObjectsOf(storage, upload);
  await db
    .deleteFrom("uploads")
    .where("id", "=", upload.id)
    .where("seller_id", "=", upload.seller_id)
    .execute();
}
