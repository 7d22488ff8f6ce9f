import { randomUUID } from "node:crypto";
import type { z } from "zod";
import {
  checkFileChoice,
  type createUploadRequestSchema,
  STORAGE_QUOTA_BYTES,
  UPLOAD_MESSAGES,
  type UploadIntent,
} from "../../../contracts/uploads";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import { assertCanManageProducts } from "../billing";
import { lockSellerUploads, storageUsedBytes } from "./queries";
import { cleanFileName, keyExtension, newObjectKey } from "./upload-keys";

/** How long a browser has to send the bytes and complete; later, the janitor removes the intent. */
export const UPLOAD_INTENT_TTL_SECONDS = 60 * 60;
/** How long the signed PUT link accepts a request. The browser sends at once; a signed S3 link cannot be revoked. */
export const UPLOAD_LINK_TTL_SECONDS = 15 * 60;
/**
 * When the object at an upload key is deleted, whatever became of the upload: past the intent's hour and
 * its checking time (its bytes were moved away or the upload is gone), and long after its link stopped
 * taking new PUTs, so that even one begun on the link's last second has had over an hour and a half.
 */
export const UPLOAD_KEY_SWEEP_DELAY_MS = 2 * 60 * 60_000;

export interface UploadDeps {
  db: Database;
  storage: Storage;
}

/**
 * Checks the declared file against the limits and the seller's quota, records a pending upload and
 * returns where to PUT the bytes. Every upload lands in the private bucket first, covers included.
 */
export async function createUploadIntent(
  { db, storage }: UploadDeps,
  sellerId: string,
  request: z.output<typeof createUploadRequestSchema>,
  now = new Date(),
): Promise<UploadIntent> {
  // Product files and covers are for products: the same plan and payouts creating one needs, so a
  // free account cannot park files. A profile picture only needs an account (store settings).
  if (request.purpose !== "profile-picture") await assertCanManageProducts(db, sellerId, now);
  // The name as it will be stored and handed to buyers is the one checked.
  const fileName = cleanFileName(request.fileName);
  const file = { name: fileName, size: request.sizeBytes, type: request.contentType };
  const problem = checkFileChoice(request.purpose, file);
  if (problem) throw new AppError(problem.code, 400, problem.message);

  const uploadId = randomUUID();
  const uploadKey = newObjectKey(sellerId, keyExtension(fileName), now);
  const expiresAt = new Date(now.getTime() + UPLOAD_INTENT_TTL_SECONDS * 1000);
  await db.transaction().execute(async (trx) => {
    await lockSellerUploads(trx, sellerId);
    const usedBytes = await storageUsedBytes(trx, sellerId);
    if (usedBytes + request.sizeBytes > STORAGE_QUOTA_BYTES) {
      throw new AppError("storage_limit_reached", 400, UPLOAD_MESSAGES.storageLimitReached(usedBytes));
    }
    await trx
      .insertInto("uploads")
      .values({
        id: uploadId,
        seller_id: sellerId,
        purpose: request.purpose,
        original_name: fileName,
        declared_size_bytes: request.sizeBytes,
        declared_type: request.contentType,
        upload_key: uploadKey,
        expires_at: expiresAt,
      })
      .execute();
    await trx
      .insertInto("upload_key_sweeps")
      .values({ upload_key: uploadKey, sweep_after: new Date(now.getTime() + UPLOAD_KEY_SWEEP_DELAY_MS) })
      .execute();
  });

  const target = await storage.signedUploadTarget("product-files", uploadKey, {
    sizeBytes: request.sizeBytes,
    contentType: request.contentType || "application/octet-stream",
    expiresInSeconds: UPLOAD_LINK_TTL_SECONDS,
  });
  return {
    uploadId,
    method: target.method,
    url: target.url,
    headers: target.headers,
    expiresAt: expiresAt.toISOString(),
  };
}
