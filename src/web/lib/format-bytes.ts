const UNITS = ["KB", "MB", "GB"] as const;

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A size's number as `locale` writes it ("1.5", "1,5"); English keeps today's plain digits. */
function sizeNumber(value: number, locale: string | undefined): string {
  if (!locale || locale === "en") return String(value);
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 1, useGrouping: false });
    numberFormats.set(locale, format);
  }
  return format.format(value);
}

/**
 * 1536 → "1.5 KB" ("1,5 KB" for a page in German); binary units, as the browser's File.size / 1024
 * and the 250MB limit count them.
 */
export function formatBytes(bytes: number, locale?: string): string {
  if (bytes < 1024) return `${sizeNumber(bytes, locale)} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${sizeNumber(value >= 100 ? Math.round(value) : Number(value.toFixed(1)), locale)} ${UNITS[unit]}`;
}
