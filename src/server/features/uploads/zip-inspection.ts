import { PassThrough, Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { fileExtension, PROGRAM_EXTENSIONS } from "../../../contracts/uploads";
import type { BucketName, Storage } from "../../adapters/storage/storage";
import { containsEicar, isZipContainer, sniffContent } from "./file-signatures";

/**
 * Bounds on the work one ZIP can cause, however it is built (many entries, nested archives, bombs).
 * Every entry within them is checked, by name and by content; a ZIP past them is refused, never
 * accepted half-checked.
 */
const LIMITS = {
  /** Entries in all, those of nested archives included. */
  entries: 10_000,
  /** Bytes read from each entry to recognise its content (file-type's recommended sample). */
  headBytes: 4100,
  /** Nested archives are opened in memory up to this size each, this deep, and this much in total. */
  nestedArchiveBytes: 16 * 1024 * 1024,
  nestedDepth: 3,
  nestedTotalBytes: 64 * 1024 * 1024,
};
const inMb = (bytes: number) => `${bytes / (1024 * 1024)} MB`;
const PUT_FILES_IN_DIRECTLY = "Please put its files in the ZIP directly.";

interface Budget {
  entries: number;
  nestedBytes: number;
}

// Small reads are served from blocks of this size, a few of them kept.
const BLOCK_BYTES = 256 * 1024;
const CACHED_BLOCKS = 8;

/**
 * yauzl reads the central directory and entries by byte range, so a ZIP in S3 is never downloaded whole.
 * It asks for many tiny ranges (each directory record, each local header, each entry's first bytes):
 * those are cut from blocks read BLOCK_BYTES at a time, so a ZIP of thousands of small files costs a few
 * reads (GETs on S3), not several per file. Larger ranges stream straight from storage.
 */
class StorageRangeReader extends yauzl.RandomAccessReader {
  private readonly blocks = new Map<number, Promise<Buffer>>();

  constructor(
    private readonly storage: Storage,
    private readonly object: { bucket: BucketName; key: string; sizeBytes: number },
  ) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    if (end <= start) return Readable.from([]);
    if (end - start > BLOCK_BYTES) return this.streamFromStorage(start, end);
    const first = Math.floor(start / BLOCK_BYTES);
    const last = Math.floor((end - 1) / BLOCK_BYTES);
    const through = new PassThrough();
    Promise.all(first === last ? [this.block(first)] : [this.block(first), this.block(last)]).then(
      (blocks) => {
        // A view into the block, copied only when the range spans two of them.
        const bytes = blocks.length === 1 ? blocks[0]! : Buffer.concat(blocks);
        const offset = first * BLOCK_BYTES;
        through.end(bytes.subarray(start - offset, end - offset));
      },
      (error: Error) => through.destroy(error),
    );
    return through;
  }

  private block(index: number): Promise<Buffer> {
    const cached = this.blocks.get(index);
    if (cached) {
      // Most recently used last: the first key is the one to drop.
      this.blocks.delete(index);
      this.blocks.set(index, cached);
      return cached;
    }
    const start = index * BLOCK_BYTES;
    const end = Math.min(start + BLOCK_BYTES, this.object.sizeBytes);
    const block = readAll(this.streamFromStorage(start, end));
    block.catch(() => this.blocks.delete(index));
    this.blocks.set(index, block);
    if (this.blocks.size > CACHED_BLOCKS) this.blocks.delete(this.blocks.keys().next().value as number);
    return block;
  }

  private streamFromStorage(start: number, end: number): Readable {
    const through = new PassThrough();
    this.storage.read(this.object.bucket, this.object.key, { start, end: end - 1 }).then(
      (source) => pipeline(source, through).catch((error: Error) => through.destroy(error)),
      (error: Error) => through.destroy(error),
    );
    return through;
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Why this ZIP must not be sold (a program inside, an Android app, the EICAR file, a password, or
 * anything that keeps it from being checked whole), in plain words, or undefined when it is fine.
 */
export async function findZipProblem(
  storage: Storage,
  object: { bucket: BucketName; key: string; sizeBytes: number },
): Promise<string | undefined> {
  const reader = new StorageRangeReader(storage, object);
  let zip: ZipFile;
  try {
    zip = await yauzl.fromRandomAccessReaderPromise(reader, object.sizeBytes, {
      lazyEntries: true,
      autoClose: false,
    });
  } catch {
    return "The ZIP file is damaged and can't be opened.";
  }
  const budget: Budget = { entries: LIMITS.entries, nestedBytes: LIMITS.nestedTotalBytes };
  try {
    return await scanEntries(zip, budget, 1);
  } catch {
    return "The ZIP file is damaged and can't be opened.";
  } finally {
    zip.close();
  }
}

async function scanEntries(zip: ZipFile, budget: Budget, depth: number): Promise<string | undefined> {
  budget.entries -= zip.entryCount;
  if (budget.entries < 0) {
    return `The ZIP holds more than ${LIMITS.entries.toLocaleString("en-US")} files, too many to check for programs. Please split it into smaller ZIPs.`;
  }
  for await (const entry of zip.eachEntry()) {
    const problem = problemInName(entry.fileName) ?? (await problemInContent(zip, entry, budget, depth));
    if (problem) return problem;
  }
  return undefined;
}

function problemInName(fileName: string): string | undefined {
  const segments = fileName.toLowerCase().split("/");
  const baseName = segments.at(-1) ?? "";
  if (baseName === "androidmanifest.xml" || baseName === "classes.dex") {
    return "The ZIP is an Android app (APK). Programs can't be sold here.";
  }
  // A folder named `*.app` is a macOS application bundle.
  if (
    PROGRAM_EXTENSIONS.has(fileExtension(baseName)) ||
    segments.some((segment) => segment.endsWith(".app"))
  ) {
    return `The ZIP contains a program (${fileName}). Programs can't be sold here, even inside a ZIP.`;
  }
  return undefined;
}

async function problemInContent(zip: ZipFile, entry: Entry, budget: Budget, depth: number) {
  if (entry.fileName.endsWith("/") || entry.uncompressedSize === 0) return undefined;
  if (entry.isEncrypted()) {
    return "Password-protected ZIPs can't be checked for programs. Please upload the ZIP without a password.";
  }
  if (!entry.canDecodeFileData()) {
    return `The ZIP stores ${entry.fileName} with a compression method that can't be checked for programs. Please make the ZIP again with standard compression.`;
  }
  const head = await readEntryHead(zip, entry, LIMITS.headBytes);
  const content = await sniffContent(head);
  if (content.program) {
    return `The ZIP contains a program (${entry.fileName} is ${content.program}). Programs can't be sold here.`;
  }
  if (containsEicar(head)) return `The ZIP contains a virus test file (${entry.fileName}).`;
  if (content.unopenableArchive) {
    return `The ZIP holds a ${content.unopenableArchive} archive (${entry.fileName}), which can't be checked for programs. ${PUT_FILES_IN_DIRECTLY}`;
  }
  if (isZipContainer(head)) return problemInNestedZip(zip, entry, budget, depth);
  return undefined;
}

/** A ZIP inside the ZIP is checked the same way, in memory, within the nesting limits. */
async function problemInNestedZip(zip: ZipFile, entry: Entry, budget: Budget, depth: number) {
  if (depth >= LIMITS.nestedDepth) {
    return `The ZIP holds ZIPs nested more than ${LIMITS.nestedDepth} levels deep (${entry.fileName}), too deep to check for programs. ${PUT_FILES_IN_DIRECTLY}`;
  }
  if (entry.uncompressedSize > LIMITS.nestedArchiveBytes) {
    return `The ZIP holds a ZIP over ${inMb(LIMITS.nestedArchiveBytes)} (${entry.fileName}), too large to check for programs. ${PUT_FILES_IN_DIRECTLY}`;
  }
  budget.nestedBytes -= entry.uncompressedSize;
  if (budget.nestedBytes < 0) {
    return `The ZIP holds more than ${inMb(LIMITS.nestedTotalBytes)} of ZIPs inside it, too much to check for programs. Please put their files in the ZIP directly.`;
  }
  let nested: ZipFile;
  try {
    nested = await yauzl.fromBufferPromise(await readEntry(zip, entry), {
      lazyEntries: true,
      autoClose: false,
    });
  } catch {
    return `The ZIP holds a ZIP that is damaged and can't be opened (${entry.fileName}).`;
  }
  try {
    return await scanEntries(nested, budget, depth + 1);
  } finally {
    nested.close();
  }
}

/** The first bytes of an entry; the rest is never inflated. */
async function readEntryHead(zip: ZipFile, entry: Entry, bytes: number): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      length += (chunk as Buffer).length;
      if (length >= bytes) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, bytes);
}

/** A whole (small, size-checked) entry; yauzl fails the stream if it inflates past its declared size. */
async function readEntry(zip: ZipFile, entry: Entry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
