import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import type { ImportItem } from "./import-records";
import { PLATFORM_READERS } from "./platforms";

/** Where an item sits in an import: its file (in reading order) and its place among that file's items. */
export interface ItemPosition {
  file: number;
  item: number;
}

/** Whether `a` comes after `b` in the import's reading order. */
export const isAfter = (a: ItemPosition, b: ItemPosition | null) =>
  !b || a.file > b.file || (a.file === b.file && a.item > b.item);

/**
 * Every item of an import's files, in order (files in the order they were added, lists of licence keys
 * last: `readAfterOrders`; each file as its reader streams it): one file open at a time, read as a stream,
 * so an import of any size reads in bounded memory. The dry run and the run both read through here.
 */
export async function* importItems(
  deps: { db: Database; storage: Storage },
  importId: string,
): AsyncGenerator<{ position: ItemPosition; item: ImportItem }> {
  const files = await deps.db
    .selectFrom("store_import_files")
    .select(["position", "file_name", "reader", "storage_key"])
    .where("import_id", "=", importId)
    .orderBy("position")
    .execute();
  const readers = files.map((file) => {
    const reader = PLATFORM_READERS.find((candidate) => candidate.label === file.reader);
    if (!reader) throw new Error(`No reader labelled ${file.reader}`);
    return { file, reader };
  });
  const ordered = [
    ...readers.filter(({ reader }) => !reader.readAfterOrders),
    ...readers.filter(({ reader }) => reader.readAfterOrders),
  ];
  for (const [index, { file, reader }] of ordered.entries()) {
    const body = await deps.storage.read("product-files", file.storage_key);
    let item = 0;
    for await (const next of reader.read(file.file_name, body)) {
      yield { position: { file: index, item }, item: next };
      item++;
    }
  }
}
