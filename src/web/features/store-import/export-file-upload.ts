import { z } from "zod";
import { apiErrorSchema } from "../../../contracts/errors";
import { type ProductZipResult, productZipResultSchema } from "../../../contracts/store-import";
import { reportError } from "../../lib/report-error";
import { type UploadProgress, uploadProgress } from "../uploads/upload-progress";
import { importPath } from "./store-import-api";

export const addedExportFileSchema = z.object({ id: z.string(), reader: z.string(), sizeBytes: z.number() });
export type AddedExportFile = z.infer<typeof addedExportFileSchema>;

/** The server refused the file (unknown export, another platform's, too large, empty): its message says why. */
export class ExportFileRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExportFileRefused";
  }
}

/** The server's words for a refused file, from its `{ message }` answer; a plain sentence when it has none. */
export function refusalMessage(status: number, body: string): string {
  try {
    const parsed = apiErrorSchema.safeParse(JSON.parse(body));
    if (parsed.success) return parsed.data.message;
  } catch {
    // Not JSON: the status says enough.
  }
  return `The file could not be added (${status}). Please try again.`;
}

/** How a raw upload reports its progress and can be cancelled. */
export type RawUploadOptions = { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal };

/**
 * One file sent as the request's raw body (PUT `url`) with XMLHttpRequest, the one browser API that
 * reports upload progress; the answer parsed with `schema`. Same origin, so the session cookie goes
 * along. A 4xx becomes ExportFileRefused with the server's message; a network failure or a 5xx is a
 * global error, as in api.ts.
 */
export function putRawFile<T>(
  url: string,
  file: File,
  schema: z.ZodType<T>,
  { onProgress, signal }: RawUploadOptions = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("PUT", url);
    request.setRequestHeader("content-type", "application/octet-stream");
    request.setRequestHeader("accept", "application/json");
    request.upload.onprogress = (event) => onProgress?.(uploadProgress(event.loaded, file.size));
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress?.(uploadProgress(file.size, file.size));
        try {
          resolve(schema.parse(JSON.parse(request.responseText)));
        } catch {
          reject(new Error(`Unexpected response from PUT ${url}`));
        }
        return;
      }
      if (request.status >= 500) {
        const failure = new Error(`PUT ${url} answered ${request.status}`);
        reportError("server", failure, "Server Error", `Failed to fetch data (${request.status})`);
      }
      reject(new ExportFileRefused(refusalMessage(request.status, request.responseText)));
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

/** One export file (PUT /api/store-imports/:id/files?name=…): what the server recognised it as. */
export function uploadExportFile(importId: string, file: File, options: RawUploadOptions = {}) {
  const url = `${importPath(importId, "/files")}?name=${encodeURIComponent(file.name)}`;
  return putRawFile(url, file, addedExportFileSchema, options);
}

/**
 * A ZIP of products' files: for one product (every file is its) or for all (a folder per product). The
 * server unpacks it before it answers: what was attached to each product, and what was left out.
 */
export function uploadProductZip(
  importId: string,
  target: { externalId: string } | "all",
  file: File,
  options: RawUploadOptions = {},
): Promise<ProductZipResult> {
  const path = target === "all" ? "/products-zip" : `/products/${encodeURIComponent(target.externalId)}/zip`;
  const url = `${importPath(importId, path)}?name=${encodeURIComponent(file.name)}`;
  return putRawFile(url, file, productZipResultSchema, options);
}
