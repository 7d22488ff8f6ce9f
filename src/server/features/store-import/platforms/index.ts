/**
 * Every platform export the store importer reads, and recognising an uploaded file as one of them
 * (docs/store-import.md, "Platform readers").
 */
import type { PlatformFileReader } from "../import-records";
import { GUMROAD_READERS } from "./gumroad";
import { LEMON_SQUEEZY_READERS } from "./lemonsqueezy";
import { PAYHIP_READERS } from "./payhip";
import { POLAR_READERS } from "./polar";
import { headLooksBinary, notTextError } from "./text-input";

export { ImportFileError } from "./errors";

/** Each reader recognises its own file by content (header line, JSON shape); no two claim the same file. */
export const PLATFORM_READERS: PlatformFileReader[] = [
  ...GUMROAD_READERS,
  ...LEMON_SQUEEZY_READERS,
  ...PAYHIP_READERS,
  ...POLAR_READERS,
];

/** What the page says of a file no reader recognises. */
export const UNKNOWN_EXPORT_MESSAGE =
  "This file is not an export we know: upload a sales, customers, subscriptions or licence-key export from Gumroad, Lemon Squeezy, Payhip or Polar, unchanged, as the platform gave it (CSV or JSON).";

/** The same message naming the file. */
export function unknownExportMessage(fileName: string): string {
  return `"${fileName}": ${UNKNOWN_EXPORT_MESSAGE}`;
}

/**
 * The reader of an uploaded file, from its name and its first 64 KB as text; undefined for a file we do not
 * know (show unknownExportMessage). A binary file (an image renamed .csv) is refused with ImportFileError.
 */
export function detectReader(fileName: string, head: string): PlatformFileReader | undefined {
  if (headLooksBinary(head)) throw notTextError(fileName);
  return PLATFORM_READERS.find((reader) => reader.detect(fileName, head));
}
