import { z } from "zod";

/** A product's files: 1 to 20, each a checked upload (≤ 250 MB, all within the 5 GB quota: uploads.ts). */
export const PRODUCT_FILE_LIMITS = {
  minFiles: 1,
  maxFiles: 20,
  /** The name buyers see. */
  nameMax: 200,
} as const;

export const PRODUCT_FILE_MESSAGES = {
  noFiles: "Add at least one file: buyers need something to download.",
  tooMany: `A product can have at most ${PRODUCT_FILE_LIMITS.maxFiles} files.`,
  nameMissing: "Give every file the name buyers will see.",
  nameTooLong: `File names must be at most ${PRODUCT_FILE_LIMITS.nameMax} characters.`,
  nameInvalid: "File names can't contain control characters.",
  listedTwice: "Each file can be listed only once.",
  entryInvalid: "Each file needs its id or a new upload.",
  notThisProduct: "One of these files is not part of this product. Reload the page and try again.",
} as const;

/**
 * One file as a form sends it. On /new: `uploadId` (a checked upload), `name` optional (the uploaded
 * file's name). On an edit, the whole list in its new order: `id` keeps an existing file (with `name`
 * to rename it, `uploadId` to replace its bytes), no `id` adds the upload; a file left out is removed.
 */
export const productFileEntrySchema = z.object({
  id: z.string().min(1).max(64).optional(),
  uploadId: z.string().min(1).max(64).optional(),
  name: z.string().max(1000).optional(),
});
export type ProductFileEntry = z.infer<typeof productFileEntrySchema>;

type Checked<T> = { value: T } | { problem: string };

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** A display name: trimmed, 1 to 200 printable characters. */
export function checkFileDisplayName(input: string): Checked<string> {
  const name = input.trim();
  if (name === "") return { problem: PRODUCT_FILE_MESSAGES.nameMissing };
  if (name.length > PRODUCT_FILE_LIMITS.nameMax) return { problem: PRODUCT_FILE_MESSAGES.nameTooLong };
  if (CONTROL_CHARACTERS.test(name)) return { problem: PRODUCT_FILE_MESSAGES.nameInvalid };
  return { value: name };
}

/**
 * The file list's shape: 1 to 20 entries, each an existing file or an upload, none twice, names valid.
 * Whether ids belong to the product and uploads to the seller is the server's part (product-files.ts).
 */
export function checkFileList(
  entries: ProductFileEntry[],
  { editing }: { editing: boolean },
): Checked<ProductFileEntry[]> {
  if (entries.length < PRODUCT_FILE_LIMITS.minFiles) return { problem: PRODUCT_FILE_MESSAGES.noFiles };
  if (entries.length > PRODUCT_FILE_LIMITS.maxFiles) return { problem: PRODUCT_FILE_MESSAGES.tooMany };
  const ids = new Set<string>();
  const uploadIds = new Set<string>();
  const checked: ProductFileEntry[] = [];
  for (const entry of entries) {
    if ((!editing && entry.id !== undefined) || (entry.id === undefined && entry.uploadId === undefined)) {
      return { problem: PRODUCT_FILE_MESSAGES.entryInvalid };
    }
    if (entry.id !== undefined) {
      if (ids.has(entry.id)) return { problem: PRODUCT_FILE_MESSAGES.listedTwice };
      ids.add(entry.id);
    }
    if (entry.uploadId !== undefined) {
      if (uploadIds.has(entry.uploadId)) return { problem: PRODUCT_FILE_MESSAGES.listedTwice };
      uploadIds.add(entry.uploadId);
    }
    if (entry.name === undefined) {
      checked.push(entry);
      continue;
    }
    const name = checkFileDisplayName(entry.name);
    if ("problem" in name) return name;
    checked.push({ ...entry, name: name.value });
  }
  return { value: checked };
}

/** One of a product's files as its seller sees it (edit page). */
export const sellerProductFileSchema = z.object({
  id: z.string(),
  /** What buyers see. */
  name: z.string(),
  /** The name it was uploaded with. */
  originalName: z.string(),
  sizeBytes: z.number(),
  contentType: z.string(),
});
export type SellerProductFile = z.infer<typeof sellerProductFileSchema>;

/**
 * The name a download is saved under: the display name, ending in the file's real extension (a file
 * renamed "Chapter 1" downloads as "Chapter 1.pdf"; one renamed "notes.exe" as "notes.exe.pdf", so the
 * buyer's computer opens it by what it is).
 */
export function downloadFileName(displayName: string, originalName: string): string {
  const dot = originalName.lastIndexOf(".");
  const extension = dot > 0 ? originalName.slice(dot).toLowerCase() : "";
  if (!extension || displayName.toLowerCase().endsWith(extension)) return displayName;
  return `${displayName}${extension}`;
}
