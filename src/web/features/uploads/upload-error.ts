import { apiErrorSchema } from "../../../contracts/errors";
import { STORAGE_FULL_STATUS, uploadErrorTitle } from "../../../contracts/uploads";
import { ApiError } from "../../lib/api";

/** A refused or failed upload, with the toast title the spec gives its code ('Invalid file', ...). */
export class UploadError extends Error {
  readonly code: string;
  readonly title: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = "UploadError";
    this.code = code;
    this.title = uploadErrorTitle(code);
  }
}

/**
 * The API's 4xx for an upload step becomes an UploadError, and so does a full storage (507), whose
 * message tells the seller to try later; anything else (other 5xx, network) is left as it is.
 */
export function asUploadError(error: unknown): unknown {
  const explained = error instanceof ApiError && (error.status < 500 || error.status === STORAGE_FULL_STATUS);
  return explained ? new UploadError(error.code, error.message) : error;
}

/** The error body of a failed PUT to storage (the local driver answers `{ code, message }`). */
export function uploadErrorFromBody(status: number, body: string): UploadError {
  try {
    const parsed = apiErrorSchema.safeParse(JSON.parse(body));
    if (parsed.success) return new UploadError(parsed.data.code, parsed.data.message);
  } catch {
    // S3 answers XML; the status says enough.
  }
  return new UploadError("upload_failed", `The storage answered ${status}. Please try again.`);
}
