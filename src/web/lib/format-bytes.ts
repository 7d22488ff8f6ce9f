const UNITS = ["KB", "MB", "GB"] as const;

/** 1536 → "1.5 KB"; binary units, as the browser's File.size / 1024 and the 250MB limit count them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : Number(value.toFixed(1))} ${UNITS[unit]}`;
}
