import { randomBytes } from "node:crypto";
import { COVER_IMAGE_SIZE, fileExtension } from "../../../contracts/uploads";
import type { StoredCoverVariant } from "../../db/schema";

/** `{sellerId}/{timestamp}-{random}.{ext}`: the server picks every key; the user's file name is only metadata. */
export function newObjectKey(sellerId: string, extension: string, now: Date): string {
  return `${sellerId}/${now.getTime()}-${randomBytes(8).toString("hex")}.${extension}`;
}

/** The widths a cover is offered at (srcset), each at the Open Graph ratio; none wider than the image. */
export const COVER_VARIANT_WIDTHS = [320, 640, 960, 1280] as const;

const heightAtCoverRatio = (width: number) =>
  Math.round((width * COVER_IMAGE_SIZE.height) / COVER_IMAGE_SIZE.width);

/**
 * A cover's rendered images sit beside its checked key: `{base}.jpg` (Open Graph) and one
 * `{base}-{width}w.webp` per width. All of them are planned (and recorded) before the image is read;
 * rendering then makes those the image is wide enough for.
 */
export function coverImageKeys(checkedKey: string): { openGraph: string; variants: StoredCoverVariant[] } {
  const base = checkedKey.replace(/\.[^./]+$/, "");
  return {
    openGraph: `${base}.jpg`,
    variants: COVER_VARIANT_WIDTHS.map((width) => ({
      key: `${base}-${width}w.webp`,
      width,
      height: heightAtCoverRatio(width),
    })),
  };
}

/**
 * Whether a key is a cover size, which is written once and never changed: its base comes from
 * newObjectKey (a timestamp and 64 random bits) made fresh at the one claim of its upload, only that
 * completion writes it, and no upload link can write to product-covers. So it may be cached forever.
 */
export const isCoverVariantKey = (key: string): boolean => /^[^/]+\/\d+-[0-9a-f]{16}-\d+w\.webp$/.test(key);

/**
 * `{sellerId}/profile-{uploadId}.webp`: each picture has its own key (the spec's `profile.{ext}` plus
 * the upload id), so a picture that is chosen but never saved can never replace or delete the live one.
 */
export const profilePictureKey = (sellerId: string, uploadId: string): string =>
  `${sellerId}/profile-${uploadId}.webp`;

/** The extension a key gets: the file's own when it is plain letters and digits, else `bin`. */
export function keyExtension(fileName: string): string {
  const extension = fileExtension(fileName);
  return /^[a-z0-9]{1,10}$/.test(extension) ? extension : "bin";
}

/**
 * A file name as metadata: no folders (browsers may send `C:\fakepath\…`), no control characters, and
 * no trailing dots or spaces (Windows drops them, so `invoice.bat.` would be saved as `invoice.bat`).
 */
export function cleanFileName(fileName: string): string {
  const baseName = fileName.split(/[\\/]/).pop() ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  const printable = baseName.replace(/[\u0000-\u001f\u007f]/g, "");
  return printable.replace(/[\s.]+$/, "").trim() || "file";
}
