import { ARCHIVE_RECORD_FILES, ARCHIVE_RECORD_KINDS, STORE_PATH } from "../../../../contracts/store-archive";
import type { Storage } from "../../../adapters/storage/storage";
import { ImportFileError } from "../platforms";
import { ARCHIVE_MESSAGES, withArchive } from "./archive-zip";

/**
 * An archive added to an import: a ZIP (read through ranged reads, never whole) whose manifest says it is
 * a Flatfee store archive of a version this code reads, with every entry it lists, store.json and each
 * NDJSON file among them. Throws ImportFileError (the caller deletes the object and records nothing).
 */
export async function checkArchiveFile(
  storage: Storage,
  file: { storageKey: string; sizeBytes: number; fileName: string },
): Promise<void> {
  await withArchive(storage, file, async (_archive, manifest) => {
    const paths = new Set(manifest.files.map((entry) => entry.path));
    for (const path of [STORE_PATH, ...ARCHIVE_RECORD_KINDS.map((kind) => ARCHIVE_RECORD_FILES[kind].path)])
      if (!paths.has(path))
        throw new ImportFileError(file.fileName, ARCHIVE_MESSAGES.missingEntry(file.fileName, path));
  });
}
