import { createHash } from "node:crypto";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type * as Yauzl from "yauzl";
import {
  type ArchiveManifest,
  archiveManifestSchema,
  MANIFEST_PATH,
  STORE_ARCHIVE_FORMAT,
  STORE_ARCHIVE_VERSION,
} from "../../../../contracts/store-archive";
import type { Storage } from "../../../adapters/storage/storage";
import { ImportFileError } from "../platforms";
import { checkedEntryBytes, storageReader } from "../stored-zip";

/** The archive's reader label, as the page shows it (store_import_files.reader). */
export const ARCHIVE_READER_LABEL = "Flatfee store archive";

/** A manifest (or store.json) is read whole: refused past this size. */
const MAX_JSON_ENTRY_BYTES = 64 * 1024 * 1024;
/** One NDJSON line, at most. */
const MAX_LINE_CHARS = 10_000_000;

export const ARCHIVE_MESSAGES = {
  notZip: (file: string) =>
    `${file} is not a ZIP file we can read (or it is incomplete: download the archive again).`,
  notArchive: (file: string) =>
    `${file} is not a Flatfee store archive: it has no manifest.json. Upload the ZIP that "Export my store" made.`,
  badManifest: (file: string) =>
    `${file} is not a Flatfee store archive: its manifest.json is not the archive's manifest.`,
  newerVersion: (file: string, version: unknown) =>
    `${file} is a Flatfee store archive of version ${String(version)}, newer than this instance reads (version ${STORE_ARCHIVE_VERSION}). Update this instance, then import it again.`,
  missingEntry: (file: string, path: string) =>
    `${file} is incomplete: ${path}, listed in its manifest, is not in the ZIP. Download the archive again.`,
  mismatch: (file: string, path: string) =>
    `${file} is damaged: ${path} does not match the SHA-256 its manifest lists. Download the archive again.`,
  brokenEntry: (file: string, path: string) =>
    `${file} is damaged: ${path} cannot be unpacked. Download the archive again.`,
};

/** An opened archive: its entries by path (the central directory only), read on demand. */
export class OpenArchive {
  private constructor(
    readonly fileName: string,
    private readonly zip: Yauzl.ZipFile,
    readonly entries: Map<string, Yauzl.Entry>,
  ) {}

  static async open(storage: Storage, key: string, sizeBytes: number, fileName: string) {
    let zip: Yauzl.ZipFile;
    const { yauzl, reader } = await storageReader(storage, key);
    try {
      zip = await yauzl.fromRandomAccessReaderPromise(reader, sizeBytes, {
        lazyEntries: true,
        autoClose: false,
        validateEntrySizes: true,
        strictFileNames: false,
      });
    } catch {
      throw new ImportFileError(fileName, ARCHIVE_MESSAGES.notZip(fileName));
    }
    const entries = new Map<string, Yauzl.Entry>();
    try {
      await new Promise<void>((resolve, reject) => {
        zip.on("entry", (entry: Yauzl.Entry) => {
          entries.set(entry.fileName, entry);
          zip.readEntry();
        });
        zip.on("end", () => resolve());
        zip.on("error", reject);
        zip.readEntry();
      });
    } catch {
      zip.close();
      throw new ImportFileError(fileName, ARCHIVE_MESSAGES.notZip(fileName));
    }
    return new OpenArchive(fileName, zip, entries);
  }

  close() {
    this.zip.close();
  }

  /** An entry's bytes as a stream (inflated); the caller checks them. */
  async rawStream(path: string): Promise<Readable> {
    const entry = this.entries.get(path);
    if (!entry) throw new ImportFileError(this.fileName, ARCHIVE_MESSAGES.missingEntry(this.fileName, path));
    try {
      return await new Promise<Readable>((resolve, reject) =>
        this.zip.openReadStream(entry, (error, stream) =>
          error || !stream ? reject(error) : resolve(stream),
        ),
      );
    } catch {
      throw new ImportFileError(this.fileName, ARCHIVE_MESSAGES.brokenEntry(this.fileName, path));
    }
  }

  /**
   * An entry's bytes, checked as they pass against the manifest's size and SHA-256: the stream errors with
   * a message for the creator at its end when they differ (a writer of the bytes must then drop them).
   */
  async verifiedStream(path: string, expected: { sizeBytes: number; sha256: string } | undefined) {
    const source = await this.rawStream(path);
    const fileName = this.fileName;
    const hash = createHash("sha256");
    let size = 0;
    return checkedEntryBytes(source, {
      check: (chunk) => {
        hash.update(chunk);
        size += chunk.length;
      },
      atEnd: () => {
        const digest = hash.digest("hex");
        if (!expected || expected.sha256 !== digest || expected.sizeBytes !== size)
          throw new ImportFileError(fileName, ARCHIVE_MESSAGES.mismatch(fileName, path));
      },
      broken: () => new ImportFileError(fileName, ARCHIVE_MESSAGES.brokenEntry(fileName, path)),
    });
  }

  /** A whole entry (a JSON document), checked against the manifest when it lists it. */
  async readWhole(path: string, expected?: { sizeBytes: number; sha256: string }): Promise<Buffer> {
    const entry = this.entries.get(path);
    if (entry && entry.uncompressedSize > MAX_JSON_ENTRY_BYTES)
      throw new ImportFileError(this.fileName, ARCHIVE_MESSAGES.badManifest(this.fileName));
    const stream = expected ? await this.verifiedStream(path, expected) : await this.rawStream(path);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of stream) chunks.push(chunk as Buffer);
    } catch (error) {
      if (error instanceof ImportFileError) throw error;
      throw new ImportFileError(this.fileName, ARCHIVE_MESSAGES.brokenEntry(this.fileName, path));
    }
    return Buffer.concat(chunks);
  }

  /** The manifest, checked: the format and a version this code reads. */
  async manifest(): Promise<ArchiveManifest> {
    if (!this.entries.has(MANIFEST_PATH))
      throw new ImportFileError(this.fileName, ARCHIVE_MESSAGES.notArchive(this.fileName));
    let raw: unknown;
    try {
      raw = JSON.parse((await this.readWhole(MANIFEST_PATH)).toString("utf8"));
    } catch (error) {
      if (error instanceof ImportFileError) throw error;
      throw new ImportFileError(this.fileName, ARCHIVE_MESSAGES.badManifest(this.fileName));
    }
    const head = raw as { format?: unknown; version?: unknown } | null;
    if (head?.format !== STORE_ARCHIVE_FORMAT)
      throw new ImportFileError(this.fileName, ARCHIVE_MESSAGES.badManifest(this.fileName));
    if (typeof head.version === "number" && head.version > STORE_ARCHIVE_VERSION)
      throw new ImportFileError(this.fileName, ARCHIVE_MESSAGES.newerVersion(this.fileName, head.version));
    const parsed = archiveManifestSchema.safeParse(raw);
    if (!parsed.success)
      throw new ImportFileError(this.fileName, ARCHIVE_MESSAGES.badManifest(this.fileName));
    return parsed.data;
  }

  /** Every file the manifest lists is in the ZIP (an archive cut short loses its last entries). */
  checkComplete(manifest: ArchiveManifest) {
    for (const file of manifest.files)
      if (!this.entries.has(file.path))
        throw new ImportFileError(this.fileName, ARCHIVE_MESSAGES.missingEntry(this.fileName, file.path));
  }

  /** An NDJSON entry's lines with their 1-based numbers, verified against the manifest as read. */
  async *lines(path: string, expected: { sizeBytes: number; sha256: string } | undefined) {
    const stream = await this.verifiedStream(path, expected);
    const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
    let line = 0;
    try {
      for await (const text of lines) {
        line++;
        if (text === "") continue;
        if (text.length > MAX_LINE_CHARS) {
          yield { line, text: null };
          continue;
        }
        yield { line, text };
      }
    } catch (error) {
      if (error instanceof ImportFileError) throw error;
      throw new ImportFileError(this.fileName, ARCHIVE_MESSAGES.brokenEntry(this.fileName, path));
    } finally {
      lines.close();
      stream.destroy();
    }
  }
}

/** Opens a stored archive, runs `use`, and closes it whatever happens. */
export async function withArchive<T>(
  storage: Storage,
  file: { storageKey: string; sizeBytes: number; fileName: string },
  use: (archive: OpenArchive, manifest: ArchiveManifest) => Promise<T>,
): Promise<T> {
  const archive = await OpenArchive.open(storage, file.storageKey, file.sizeBytes, file.fileName);
  try {
    const manifest = await archive.manifest();
    archive.checkComplete(manifest);
    return await use(archive, manifest);
  } finally {
    archive.close();
  }
}

/** The manifest's entry for a path (its size and SHA-256). */
export const listed = (manifest: ArchiveManifest, path: string) =>
  manifest.files.find((file) => file.path === path);
