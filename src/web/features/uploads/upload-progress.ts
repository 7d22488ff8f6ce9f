import { formatBytes } from "../../lib/format-bytes";

export type UploadProgress = { sentBytes: number; totalBytes: number; percent: number };

/** Bytes sent of the total, as a whole percentage that reaches 100 only when every byte is sent. */
export function uploadProgress(sentBytes: number, totalBytes: number): UploadProgress {
  if (totalBytes <= 0) return { sentBytes: 0, totalBytes: 0, percent: 100 };
  const sent = Math.min(Math.max(sentBytes, 0), totalBytes);
  const percent = sent === totalBytes ? 100 : Math.min(Math.floor((sent / totalBytes) * 100), 99);
  return { sentBytes: sent, totalBytes, percent };
}

/** "1.5 MB of 3 MB (50%)" */
export function describeProgress({ sentBytes, totalBytes, percent }: UploadProgress): string {
  return `${formatBytes(sentBytes)} of ${formatBytes(totalBytes)} (${percent}%)`;
}
