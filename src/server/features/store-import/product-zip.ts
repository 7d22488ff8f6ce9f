import type { Readable } from "node:stream";
import type * as Yauzl from "yauzl";
import type { ErrorCode } from "../../../contracts/error-codes";
import { PRODUCT_ZIP_MESSAGES, STORE_IMPORT_LIMITS } from "../../../contracts/store-import";
import { BYTES_PER_MB, MAX_PRODUCT_FILE_MB } from "../../../contracts/uploads";
import type { Storage } from "../../adapters/storage/storage";
import { AppError } from "../../http/errors";
import { checkedEntryBytes, storageReader } from "./stored-zip";

/** A ZIP of products' files refused as a whole: the message names the ZIP, and the entry when one is why. */
export class ZipRefused extends AppError {
  constructor(code: ErrorCode, message: string) {
    super(code, 400, message);
    this.name = "ZipRefused";
  }
}

/** One file of the ZIP to keep. */
export interface ZipFileEntry {
  /** Its path in the ZIP, as the creator sees it in their ZIP tool. */
  path: string;
  /** The folders above it (none for a file at the top). */
  folders: string[];
  /** Its own name: what it is called once attached (folders are flattened away). */
  name: string;
  /** What the ZIP says it unpacks to: held to it as it is read. */
  sizeBytes: number;
  entry: Yauzl.Entry;
}

/** Names that operating systems and ZIP tools add to folders, never meant for buyers. */
const SYSTEM_NAMES = new Set(["__macosx", "thumbs.db", "desktop.ini", "icon\r"]);
/** Hidden files and folders (.DS_Store, ._resource forks, .git) and the names above. */
const isSystemSegment = (segment: string) =>
  segment.startsWith(".") || SYSTEM_NAMES.has(segment.toLowerCase());

const MAX_ENTRY_BYTES = MAX_PRODUCT_FILE_MB * BYTES_PER_MB;

/** Local file header, or the end record of an empty ZIP: the first bytes every ZIP starts with. */
const ZIP_MAGIC = [Buffer.from("PK\u0003\u0004", "latin1"), Buffer.from("PK\u0005\u0006", "latin1")];

async function head(storage: Storage, key: string, sizeBytes: number): Promise<Buffer> {
  if (sizeBytes < 4) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.read("product-files", key, { start: 0, end: 3 }))
    chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A ZIP a creator uploaded to an import, read through ranged reads of the stored object (stored-zip.ts):
 * the central directory first, then each entry as a stream, never an entry or the ZIP whole.
 */
export class ProductZip {
  private constructor(
    readonly zipName: string,
    private readonly yauzl: typeof Yauzl,
    private readonly zip: Yauzl.ZipFile,
  ) {}

  /** Refused unless it starts like a ZIP, yauzl can read its directory, and it has 1 to 500 entries. */
  static async open(storage: Storage, key: string, sizeBytes: number, zipName: string): Promise<ProductZip> {
    const magic = await head(storage, key, sizeBytes);
    if (!ZIP_MAGIC.some((bytes) => magic.equals(bytes)))
      throw new ZipRefused("not_a_zip", PRODUCT_ZIP_MESSAGES.notZip(zipName));
    const { yauzl, reader } = await storageReader(storage, key);
    let zip: Yauzl.ZipFile;
    try {
      zip = await yauzl.fromRandomAccessReaderPromise(reader, sizeBytes, {
        lazyEntries: true,
        autoClose: false,
        // Names are decoded and checked here, so an unsafe one is refused naming it (yauzl would only fail).
        decodeStrings: false,
        // Sizes are held to what each entry claims while it is read (entryStream), with our own message.
        validateEntrySizes: false,
        strictFileNames: false,
      });
    } catch {
      throw new ZipRefused("zip_damaged", PRODUCT_ZIP_MESSAGES.damaged(zipName));
    }
    if (zip.entryCount === 0) {
      zip.close();
      throw new ZipRefused("zip_empty", PRODUCT_ZIP_MESSAGES.empty(zipName));
    }
    if (zip.entryCount > STORE_IMPORT_LIMITS.maxZipEntries) {
      zip.close();
      throw new ZipRefused("zip_too_many_entries", PRODUCT_ZIP_MESSAGES.tooManyEntries(zipName));
    }
    return new ProductZip(zipName, yauzl, zip);
  }

  close() {
    this.zip.close();
  }

  /**
   * Every file to keep, by path, and how many system files were left out. Directories are skipped, so are
   * __MACOSX, .DS_Store, Thumbs.db and hidden files. Refused at the first entry with an absolute path or
   * `..`, a password, a compression yauzl cannot inflate, or a size over a product file's 250 MB.
   */
  async files(): Promise<{ files: ZipFileEntry[]; systemFiles: number }> {
    const entries = await this.directory();
    const files: ZipFileEntry[] = [];
    let systemFiles = 0;
    for (const entry of entries) {
      const path = this.yauzl.getFileNameLowLevel(
        entry.generalPurposeBitFlag,
        entry.fileNameRaw,
        entry.extraFields,
        false,
      );
      if (this.yauzl.validateFileName(path) !== null)
        throw new ZipRefused("zip_unsafe_path", PRODUCT_ZIP_MESSAGES.unsafePath(this.zipName, path));
      if (path.endsWith("/")) continue;
      const segments = path.split("/").filter((segment) => segment !== "" && segment !== ".");
      if (segments.length === 0) continue;
      if (segments.some(isSystemSegment)) {
        systemFiles++;
        continue;
      }
      if (entry.isEncrypted())
        throw new ZipRefused("zip_encrypted", PRODUCT_ZIP_MESSAGES.encrypted(this.zipName, path));
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
        throw new ZipRefused("zip_unsupported_entry", PRODUCT_ZIP_MESSAGES.unsupported(this.zipName, path));
      if (entry.uncompressedSize > MAX_ENTRY_BYTES)
        throw new ZipRefused(
          "zip_entry_too_large",
          PRODUCT_ZIP_MESSAGES.entryTooLarge(this.zipName, path, MAX_PRODUCT_FILE_MB),
        );
      files.push({
        path,
        folders: segments.slice(0, -1),
        name: segments.at(-1)!,
        sizeBytes: entry.uncompressedSize,
        entry,
      });
    }
    files.sort((a, b) => a.path.localeCompare(b.path, "en", { numeric: true }));
    return { files, systemFiles };
  }

  /** The central directory's records (at most 500: checked on opening). */
  private async directory(): Promise<Yauzl.Entry[]> {
    const entries: Yauzl.Entry[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        this.zip.on("entry", (entry: Yauzl.Entry) => {
          entries.push(entry);
          this.zip.readEntry();
        });
        this.zip.on("end", () => resolve());
        this.zip.on("error", reject);
        this.zip.readEntry();
      });
    } catch {
      throw new ZipRefused("zip_damaged", PRODUCT_ZIP_MESSAGES.damaged(this.zipName));
    }
    return entries;
  }

  /**
   * A file's bytes, inflated as they are read and counted: the stream fails with sizeMismatch as soon as
   * it passes the size the ZIP claims (a ZIP bomb stops there, within 250 MB), or at its end when it gave
   * fewer; with brokenEntry when the entry cannot be inflated. Nothing is inflated before the caller reads
   * (it may first spend a while in the database), so no failure can arrive before anyone listens for it.
   */
  async entryStream(file: ZipFileEntry): Promise<Readable> {
    const broken = () =>
      new ZipRefused("zip_damaged", PRODUCT_ZIP_MESSAGES.brokenEntry(this.zipName, file.path));
    const lies = () =>
      new ZipRefused("zip_size_mismatch", PRODUCT_ZIP_MESSAGES.sizeMismatch(this.zipName, file.path));
    let source: Readable;
    try {
      source = await this.zip.openReadStreamPromise(file.entry);
    } catch {
      throw broken();
    }
    let read = 0;
    return checkedEntryBytes(source, {
      check: (chunk) => {
        read += chunk.length;
        if (read > file.sizeBytes) throw lies();
      },
      atEnd: () => {
        if (read !== file.sizeBytes) throw lies();
      },
      broken,
    });
  }
}
