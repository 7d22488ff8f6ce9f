import { randomBytes } from "node:crypto";
import { fileExtension } from "../../../contracts/uploads";

/** `{sellerId}/{timestamp}-{random}.{ext}`: the server picks every key; the user's file name is only metadata. */
export function newObjectKey(sellerId: string, extension: string, now: Date): string {
  return `${sellerId}/${now.getTime()}-${randomBytes(8).toString("hex")}.${extension}`;
}

/** A cover's rendered images sit beside its upload key: `{base}.jpg` (Open Graph) and `{base}-thumb.webp`. */
export function coverImageKeys(uploadKey: string): { openGraph: string; thumbnail: string } {
  const base = uploadKey.replace(/\.[^./]+$/, "");
  return { openGraph: `${base}.jpg`, thumbnail: `${base}-thumb.webp` };
}

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
