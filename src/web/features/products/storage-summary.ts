import { BYTES_PER_MB } from "../../../contracts/uploads";

export type StorageSummary = { usedMb: string; quotaLabel: string; percent: number; percentLabel: string };

/** Storage Used: MB of 5 GB with percent (the bar's total is 5 x 1024 MB, product rules, Business constants and limits). */
export function storageSummary(usedBytes: number, quotaBytes: number): StorageSummary {
  const percent = quotaBytes > 0 ? Math.min((usedBytes / quotaBytes) * 100, 100) : 0;
  const quotaGb = quotaBytes / (1024 * BYTES_PER_MB);
  return {
    usedMb: (usedBytes / BYTES_PER_MB).toFixed(2),
    quotaLabel: `${Number(quotaGb.toFixed(1))} GB`,
    percent,
    percentLabel: `${percent.toFixed(1)}%`,
  };
}
