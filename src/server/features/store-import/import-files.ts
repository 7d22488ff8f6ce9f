import { randomBytes } from "node:crypto";
import type { Readable } from "node:stream";
import { sql } from "kysely";
import {
  IMPORT_PLATFORM_NAMES,
  type ImportPlatformName,
  STORE_IMPORT_LIMITS,
  STORE_IMPORT_MESSAGES,
} from "../../../contracts/store-import";
import { ObjectTooLargeError, type Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import { AppError, badRequest } from "../../http/errors";
import { checkArchiveFile } from "./flatfee-archive/archive-file";
import { ARCHIVE_READER_LABEL } from "./flatfee-archive/archive-zip";
import { detectReader, ImportFileError, unknownExportMessage } from "./platforms";

export interface ImportFileDeps {
  db: Database;
  storage: Storage;
}

/** Every uploaded export file lives here until its import is deleted. */
const importFileKey = (sellerId: string, importId: string, fileId: string) =>
  `imports/${sellerId}/${importId}/${fileId}`;

export const newImportId = () => `imp_${randomBytes(10).toString("base64url")}`;

/** The seller's import, or 404 (another seller's import is answered as a missing one). */
export async function sellerImport(db: Database, sellerId: string, importId: string) {
  const row = await db
    .selectFrom("store_imports")
    .selectAll()
    .where("id", "=", importId)
    .where("seller_id", "=", sellerId)
    .executeTakeFirst();
  if (!row) throw new AppError("not_found", 404, STORE_IMPORT_MESSAGES.notFound);
  return row;
}

/** A new import, empty until its files are added. At most a few a day: each one reads whole exports. */
export async function createImport(
  db: Database,
  sellerId: string,
  platform: ImportPlatformName,
  now: Date,
): Promise<string> {
  const since = new Date(now.getTime() - 24 * 60 * 60_000);
  const { count } = await db
    .selectFrom("store_imports")
    .select(sql<number>`count(*)::int`.as("count"))
    .where("seller_id", "=", sellerId)
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  if (count >= STORE_IMPORT_LIMITS.perDay)
    throw new AppError("too_many_imports", 429, STORE_IMPORT_MESSAGES.tooManyToday);
  const id = newImportId();
  await db
    .insertInto("store_imports")
    .values({ id, seller_id: sellerId, platform, created_at: now })
    .execute();
  return id;
}

/**
 * Streams one export file into storage and recognises it by its first bytes: a file no reader knows,
 * or one of another platform, is refused and deleted at once, and nothing is recorded.
 */
export async function addImportFile(
  deps: ImportFileDeps,
  sellerId: string,
  importId: string,
  fileName: string,
  body: Readable,
): Promise<{ id: string; reader: string; sizeBytes: number }> {
  const row = await sellerImport(deps.db, sellerId, importId);
  if (row.status !== "collecting")
    throw new AppError("import_locked", 409, STORE_IMPORT_MESSAGES.notCollecting);
  const { count } = await deps.db
    .selectFrom("store_import_files")
    .select(sql<number>`count(*)::int`.as("count"))
    .where("import_id", "=", importId)
    .executeTakeFirstOrThrow();
  if (count >= STORE_IMPORT_LIMITS.maxFiles)
    throw badRequest(STORE_IMPORT_MESSAGES.tooManyFiles, "too_many_files");
  const archive = row.platform === "flatfee";
  if (archive && count >= 1) throw badRequest(STORE_IMPORT_MESSAGES.oneArchive, "too_many_files");

  const id = `impf_${randomBytes(8).toString("base64url")}`;
  const key = importFileKey(sellerId, importId, id);
  let sizeBytes: number;
  try {
    ({ sizeBytes } = await deps.storage.write("product-files", key, body, {
      maxBytes: archive ? STORE_IMPORT_LIMITS.maxArchiveBytes : STORE_IMPORT_LIMITS.maxFileBytes,
    }));
  } catch (error) {
    if (error instanceof ObjectTooLargeError)
      throw badRequest(
        archive ? STORE_IMPORT_MESSAGES.archiveTooLarge : STORE_IMPORT_MESSAGES.fileTooLarge,
        "file_too_large",
      );
    throw error;
  }
  try {
    if (sizeBytes === 0) throw new ImportFileError(fileName, STORE_IMPORT_MESSAGES.emptyFile);
    // An archive is a ZIP read through its manifest; a platform's export is recognised by its head.
    if (archive) await checkArchiveFile(deps.storage, { storageKey: key, sizeBytes, fileName });
    const reader = archive
      ? { label: ARCHIVE_READER_LABEL, platform: "flatfee" as const }
      : detectReader(fileName, await fileHead(deps.storage, key, sizeBytes));
    if (!reader) throw new ImportFileError(fileName, unknownExportMessage(fileName));
    if (reader.platform !== row.platform)
      throw new ImportFileError(
        fileName,
        STORE_IMPORT_MESSAGES.otherPlatform(fileName, IMPORT_PLATFORM_NAMES[reader.platform]),
      );
    await deps.db
      .insertInto("store_import_files")
      .values({
        id,
        import_id: importId,
        seller_id: sellerId,
        // After the last one (a count would repeat a position once a file was removed).
        position: sql<number>`(select coalesce(max(position), -1) + 1 from store_import_files where import_id = ${importId})`,
        file_name: fileName,
        reader: reader.label,
        size_bytes: sizeBytes,
        storage_key: key,
      })
      .execute();
    return { id, reader: reader.label, sizeBytes };
  } catch (error) {
    await deps.storage.delete("product-files", key);
    if (error instanceof ImportFileError) throw badRequest(error.message, "unreadable_file");
    throw error;
  }
}

/** The first 64 KB, as text: enough for a CSV's header or a JSON document's first keys. */
async function fileHead(storage: Storage, key: string, sizeBytes: number): Promise<string> {
  const stream = await storage.read("product-files", key, { start: 0, end: Math.min(sizeBytes, 65_536) - 1 });
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** A file added by mistake goes, while the import still collects files. */
export async function removeImportFile(
  deps: ImportFileDeps,
  sellerId: string,
  importId: string,
  fileId: string,
) {
  const row = await sellerImport(deps.db, sellerId, importId);
  if (row.status !== "collecting")
    throw new AppError("import_locked", 409, STORE_IMPORT_MESSAGES.notCollecting);
  const file = await deps.db
    .deleteFrom("store_import_files")
    .where("id", "=", fileId)
    .where("import_id", "=", importId)
    .returning("storage_key")
    .executeTakeFirst();
  if (file) await deps.storage.delete("product-files", file.storage_key);
}

/** An import and its files are deleted; what it created stays (it belongs to the store now). */
export async function deleteImport(deps: ImportFileDeps, sellerId: string, importId: string) {
  const row = await sellerImport(deps.db, sellerId, importId);
  if (row.status === "checking" || row.status === "importing")
    throw new AppError("import_running", 409, STORE_IMPORT_MESSAGES.alreadyRunning);
  const files = await deps.db
    .selectFrom("store_import_files")
    .select("storage_key")
    .where("import_id", "=", importId)
    .execute();
  await deps.db.deleteFrom("store_imports").where("id", "=", importId).execute();
  for (const file of files) await deps.storage.delete("product-files", file.storage_key);
}
