import { PassThrough, Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import type { BucketName, Storage } from "../../adapters/storage/storage";
import { containsEicar, EXECUTABLE_EXTENSIONS, executableKind, isZipContainer } from "./file-signatures";

/** Bounds on the work one ZIP can cause, however it is built (many entries, nested archives, bombs). */
const LIMITS = {
  entries: 10_000,
  /** Entries whose first bytes are read for magic numbers. */
  contentChecks: 2_000,
  headBytes: 256,
  /** Nested archives are opened in memory up to this size each, this deep, and this much in total. */
  nestedArchiveBytes: 16 * 1024 * 1024,
  nestedDepth: 3,
  nestedTotalBytes: 64 * 1024 * 1024,
};

interface Budget {
  entries: number;
  contentChecks: number;
  nestedBytes: number;
}

/** yauzl reads the central directory and entries by byte range, so a ZIP in S3 is never downloaded whole. */
class StorageRangeReader extends yauzl.RandomAccessReader {
  constructor(
    private readonly storage: Storage,
    private readonly bucket: BucketName,
    private readonly key: string,
  ) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    if (end <= start) return Readable.from([]);
    const through = new PassThrough();
    this.storage.read(this.bucket, this.key, { start, end: end - 1 }).then(
      (source) => pipeline(source, through).catch((error: Error) => through.destroy(error)),
      (error: Error) => through.destroy(error),
    );
    return through;
  }
}

/**
 * Why this ZIP must not be sold (a program inside, an Android app, the EICAR file, a password), in plain
 * words, or undefined when it is fine.
 */
export async function findZipProblem(
  storage: Storage,
  object: { bucket: BucketName; key: string; sizeBytes: number },
): Promise<string | undefined> {
  const reader = new StorageRangeReader(storage, object.bucket, object.key);
  let zip: ZipFile;
  try {
    zip = await yauzl.fromRandomAccessReaderPromise(reader, object.sizeBytes, {
      lazyEntries: true,
      autoClose: false,
    });
  } catch {
    return "The ZIP file is damaged and can't be opened.";
  }
  const budget: Budget = {
    entries: LIMITS.entries,
    contentChecks: LIMITS.contentChecks,
    nestedBytes: LIMITS.nestedTotalBytes,
  };
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
    return `The ZIP holds more than ${LIMITS.entries.toLocaleString("en-US")} files. Please split it into smaller ZIPs.`;
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
  const extension = baseName.includes(".") ? baseName.split(".").pop() : undefined;
  if (
    (extension && EXECUTABLE_EXTENSIONS.has(extension)) ||
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
  if (!entry.canDecodeFileData() || budget.contentChecks <= 0) return undefined;
  budget.contentChecks -= 1;

  const head = await readEntryHead(zip, entry, LIMITS.headBytes);
  const kind = executableKind(head);
  if (kind) return `The ZIP contains a program (${entry.fileName} is ${kind}). Programs can't be sold here.`;
  if (containsEicar(head)) return `The ZIP contains a virus test file (${entry.fileName}).`;
  if (isZipContainer(head) && canOpenNested(entry, budget, depth)) {
    budget.nestedBytes -= entry.uncompressedSize;
    const nested = await yauzl.fromBufferPromise(await readEntry(zip, entry), {
      lazyEntries: true,
      autoClose: false,
    });
    try {
      return await scanEntries(nested, budget, depth + 1);
    } finally {
      nested.close();
    }
  }
  return undefined;
}

const canOpenNested = (entry: Entry, budget: Budget, depth: number) =>
  depth < LIMITS.nestedDepth &&
  entry.uncompressedSize <= LIMITS.nestedArchiveBytes &&
  entry.uncompressedSize <= budget.nestedBytes;

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
