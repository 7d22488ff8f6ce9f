import { apiErrorSchema } from "../../../contracts/errors";
import { salesCsvFileName } from "../../../contracts/orders";
import { ApiError, monitoredFetch } from "../../lib/api";

export type ExportOutcome = "empty" | "downloaded";

/** The file name the server chose (`attachment; filename="…"`), if it said one. */
export function fileNameOf(contentDisposition: string | null): string | null {
  const match = /filename="?([^";]+)"?/i.exec(contentDisposition ?? "");
  return match?.[1]?.trim() || null;
}

type ExportDeps = {
  fetchCsv: (path: string) => Promise<Response>;
  save: (file: Blob, fileName: string) => void;
  today: () => Date;
};

/**
 * Export CSV (product rules, The calls it makes): nothing to export when there are no sales; otherwise the server
 * writes the file, its dates in the seller's time zone, and the browser saves it.
 */
export async function exportSalesCsv(
  totalSales: number,
  timeZone: string,
  { fetchCsv, save, today }: ExportDeps,
): Promise<ExportOutcome> {
  if (totalSales === 0) return "empty";
  const response = await fetchCsv(`/api/orders/export.csv?tz=${encodeURIComponent(timeZone)}`);
  if (!response.ok) {
    const body = apiErrorSchema.safeParse(await response.json().catch(() => null));
    throw body.success
      ? new ApiError(response.status, body.data.code, body.data.message)
      : new ApiError(response.status, "UNKNOWN", `Export failed (${response.status})`);
  }
  const fileName =
    fileNameOf(response.headers.get("content-disposition")) ?? salesCsvFileName(today(), timeZone);
  save(await response.blob(), fileName);
  return "downloaded";
}

/** Saves a file the page already holds, as a download with the given name. */
export function saveFile(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file to the browser's download; the object URL can go after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export const browserExportDeps: ExportDeps = {
  fetchCsv: (path) => monitoredFetch(path, { credentials: "same-origin" }),
  save: saveFile,
  today: () => new Date(),
};
