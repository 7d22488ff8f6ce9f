import {
  checkFileList,
  PRODUCT_FILE_LIMITS,
  PRODUCT_FILE_MESSAGES,
  type ProductFileEntry,
  type SellerProductFile,
} from "../../../contracts/product-files";
import { checkFileChoice, type FileChoiceProblem } from "../../../contracts/uploads";
import type { ProductFormProblem } from "./product-form";

/**
 * One row of the product form's file list: a file the product has (`id`), or one chosen here and
 * uploaded on save (`file`). `name` is what buyers see.
 */
export type FileItem =
  | { key: string; kind: "existing"; id: string; name: string; originalName: string; sizeBytes: number }
  | { key: string; kind: "new"; file: File; name: string };

let nextKey = 0;
const newKey = () => `file-${++nextKey}`;

export const existingFileItems = (files: SellerProductFile[]): FileItem[] =>
  files.map((file) => ({
    key: newKey(),
    kind: "existing",
    id: file.id,
    name: file.name,
    originalName: file.originalName,
    sizeBytes: file.sizeBytes,
  }));

/**
 * Adds chosen files to the list: each is checked as the server would (type, size, program names), and
 * the list never passes 20. Returns the new list and the first refusal, if any.
 */
export function addChosenFiles(
  items: FileItem[],
  chosen: File[],
): { items: FileItem[]; problem: FileChoiceProblem | undefined } {
  const added: FileItem[] = [];
  let problem: FileChoiceProblem | undefined;
  for (const file of chosen) {
    const refused = checkFileChoice("product-file", file);
    if (refused) {
      problem ??= refused;
      continue;
    }
    if (items.length + added.length >= PRODUCT_FILE_LIMITS.maxFiles) {
      problem ??= { code: "invalid_file", message: PRODUCT_FILE_MESSAGES.tooMany };
      break;
    }
    added.push({ key: newKey(), kind: "new", file, name: file.name });
  }
  return { items: [...items, ...added], problem };
}

/** The list with one row moved by `by` places (-1 up, 1 down). */
export function moveItem(items: FileItem[], key: string, by: -1 | 1): FileItem[] {
  const from = items.findIndex((item) => item.key === key);
  const to = from + by;
  if (from < 0 || to < 0 || to >= items.length) return items;
  const next = [...items];
  const [moved] = next.splice(from, 1);
  if (moved) next.splice(to, 0, moved);
  return next;
}

export const newFilesOf = (items: FileItem[]): File[] =>
  items.flatMap((item) => (item.kind === "new" ? [item.file] : []));

/**
 * The list as the API takes it, once the new files are uploaded (`uploadIds`, in the order of
 * newFilesOf): existing files by id, new ones by upload, each with its name.
 */
export function fileEntries(items: FileItem[], uploadIds: string[]): ProductFileEntry[] {
  let next = 0;
  return items.map((item) =>
    item.kind === "existing"
      ? { id: item.id, name: item.name }
      : { uploadId: uploadIds[next++] ?? "", name: item.name },
  );
}

/** Whether the seller changed the list of an existing product (added, removed, renamed, reordered). */
export function filesChanged(items: FileItem[], files: SellerProductFile[]): boolean {
  if (items.length !== files.length) return true;
  return items.some((item, index) => {
    const file = files[index];
    return item.kind === "new" || !file || item.id !== file.id || item.name.trim() !== file.name;
  });
}

/** A name the server would refuse (empty, too long), or too many files: the form's message. */
export function fileListProblem(items: FileItem[], failedTitle: string): ProductFormProblem | undefined {
  const entries = fileEntries(
    items,
    items.map((_, index) => `pending-${index}`),
  );
  const checked = checkFileList(entries, { editing: true });
  if ("value" in checked) return undefined;
  return { title: failedTitle, message: checked.problem, errors: { file: checked.problem } };
}
