import { STORAGE_FULL_STATUS, UPLOAD_MESSAGES } from "../../../contracts/uploads";
import { isOutOfSpace } from "../../adapters/storage/storage";
import { AppError } from "../../http/errors";

/**
 * The one answer to a write the storage had no room for (a full disk or volume quota, an S3-compatible
 * store out of space): 507 with a message to try later. Any other error passes through unchanged.
 */
export const storageFullAnswer = (error: unknown): unknown =>
  isOutOfSpace(error)
    ? new AppError("storage_full", STORAGE_FULL_STATUS, UPLOAD_MESSAGES.storageFull)
    : error;
