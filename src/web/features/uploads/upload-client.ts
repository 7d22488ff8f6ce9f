import {
  type CompletedUpload,
  checkFileChoice,
  completedUploadSchema,
  STORAGE_FULL_STATUS,
  type UploadIntent,
  type UploadPurpose,
  uploadIntentSchema,
} from "../../../contracts/uploads";
import { api, monitoredFetch } from "../../lib/api";
import { reportError } from "../../lib/report-error";
import { asUploadError, UploadError, uploadErrorFromBody } from "./upload-error";
import { type UploadProgress, uploadProgress } from "./upload-progress";

export type UploadOptions = {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
};

/**
 * Sends the bytes with XMLHttpRequest, the one browser API that reports upload progress.
 * Network failures and 5xx are global errors, as in api.ts; a 4xx, or a full storage (its message says
 * to try later), becomes an UploadError.
 */
function putBytes(intent: UploadIntent, file: File, { onProgress, signal }: UploadOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(intent.method, intent.url);
    for (const [name, value] of Object.entries(intent.headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => onProgress?.(uploadProgress(event.loaded, file.size));
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress?.(uploadProgress(file.size, file.size));
        resolve();
        return;
      }
      if (request.status >= 500 && request.status !== STORAGE_FULL_STATUS) {
        const failure = new Error(`PUT upload answered ${request.status}`);
        reportError("server", failure, "Server Error", `Failed to fetch data (${request.status})`);
      }
      reject(uploadErrorFromBody(request.status, request.responseText));
    };
    request.onerror = () => {
      const failure = new TypeError("The upload could not reach the server");
      reportError("network", failure, "Network Error", "Failed to connect to server");
      reject(failure);
    };
    request.onabort = () => reject(new DOMException("Upload cancelled", "AbortError"));
    signal?.addEventListener("abort", () => request.abort(), { once: true });
    request.send(file);
  });
}

/** Drops an upload nobody will use (the seller cancelled, or a later step failed). Best effort. */
export async function discardUpload(uploadId: string): Promise<void> {
  try {
    await monitoredFetch(
      `/api/uploads/${encodeURIComponent(uploadId)}`,
      { method: "DELETE" },
      { quiet: true },
    );
  } catch {
    // The server's janitor removes expired intents; nothing more to do here.
  }
}

/**
 * The whole upload: the same checks as the server first (no byte leaves for a refused file), then an
 * intent, the bytes straight to storage, and the server's check of what arrived.
 * A failure after the intent discards it, so nothing is left behind.
 */
export async function uploadFile(
  purpose: UploadPurpose,
  file: File,
  options: UploadOptions = {},
): Promise<CompletedUpload> {
  const problem = checkFileChoice(purpose, file);
  if (problem) throw new UploadError(problem.code, problem.message);

  const intent = await api("/api/uploads", {
    method: "POST",
    body: { purpose, fileName: file.name, sizeBytes: file.size, contentType: file.type },
    schema: uploadIntentSchema,
  }).catch((error: unknown) => {
    throw asUploadError(error);
  });
  try {
    await putBytes(intent, file, options);
    return await api(`/api/uploads/${encodeURIComponent(intent.uploadId)}/complete`, {
      method: "POST",
      schema: completedUploadSchema,
      expectedStatuses: [STORAGE_FULL_STATUS],
    });
  } catch (error) {
    void discardUpload(intent.uploadId);
    throw asUploadError(error);
  }
}
