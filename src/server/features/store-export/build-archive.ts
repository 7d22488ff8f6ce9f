import { createHash } from "node:crypto";
import { pipeline, Readable, Transform, type TransformCallback } from "node:stream";
import {
  ARCHIVE_RECORD_FILES,
  ARCHIVE_RECORD_KINDS,
  type ArchiveManifest,
  type ArchiveProduct,
  type ArchiveRecordKind,
  MANIFEST_PATH,
  STORE_ARCHIVE_FORMAT,
  STORE_ARCHIVE_VERSION,
  STORE_PATH,
} from "../../../contracts/store-archive";
import type { ArchiveObject } from "./readers/keyset";
import { readProducts } from "./readers/products";
import { readStore } from "./readers/store";
import { RECORD_READERS } from "./record-readers";
import type { StoreExportDeps } from "./store-export-deps";

/** What the archive reports as it goes (the job writes it to the export's row every so often). */
export interface ArchiveProgress {
  total(bytes: number): void;
  bytes(count: number): void;
  records(count: number): void;
}

type ListedFile = ArchiveManifest["files"][number];

/**
 * The seller's store archive as a ZIP stream (docs/export-format.md), in bounded memory whatever the
 * store's size: rows are read a page at a time and each stored file is opened only when yazl reaches
 * its entry, so one page and one file's chunks are in flight at once. What grows with the store is one
 * small entry per file (yazl keeps them for the central directory; the manifest lists them too).
 *
 * Order: store.json, the stored files (picture, covers, product files), one NDJSON file per kind, then
 * manifest.json, written last because it holds every entry's SHA-256 (as products.ndjson holds its
 * files'). Files go in stored (they are mostly compressed already); JSON is deflated. A failure of any
 * part destroys the stream, so whoever writes it fails too.
 */
export async function storeArchive(
  deps: Pick<StoreExportDeps, "db" | "storage" | "appUrl">,
  sellerId: string,
  exportedAt: Date,
  progress: ArchiveProgress,
): Promise<Readable> {
  const { ZipFile } = await import("yazl");
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  // Every entry written so far, in archive order: the manifest's list, and products' files' SHA-256.
  const listed = new Map<string, Omit<ListedFile, "path">>();
  const entry = { mtime: exportedAt };
  const inFlight = new Set<Readable>();
  zip.on("error", (error: Error) => output.destroy(error));
  // A failed archive leaves no file open: the entry being read is closed with it.
  output.once("close", () => {
    for (const source of inFlight) source.destroy();
  });
  // Every entry's bytes pass through here on their way into the ZIP: counted, hashed, listed.
  const fingerprinted = (path: string, source: Readable, countBytes: boolean) => {
    inFlight.add(source);
    const fingerprint = new Fingerprint(
      (bytes) => countBytes && progress.bytes(bytes),
      (sizeBytes, sha256) => listed.set(path, { sizeBytes, sha256 }),
    );
    // yazl pipes without forwarding errors: a source's failure must fail the archive here.
    pipeline(source, fingerprint, (error) => {
      inFlight.delete(source);
      if (error) output.destroy(error);
    });
    return fingerprint;
  };

  const store = await readStore(deps.db, sellerId);
  zip.addReadStreamLazy(STORE_PATH, entry, (done) =>
    done(null, fingerprinted(STORE_PATH, Readable.from([jsonBytes(store.record)]), false)),
  );

  const addObject = (object: ArchiveObject) =>
    zip.addReadStreamLazy(object.path, { ...entry, compress: false }, (done) => {
      deps.storage.read(object.bucket, object.key).then(
        (body) => done(null, fingerprinted(object.path, body, object.sizeBytes !== null)),
        (error: unknown) => output.destroy(error as Error),
      );
    });
  let totalBytes = 0;
  for (const object of store.objects) addObject(object);
  for await (const page of readProducts(deps.db, sellerId)) {
    for (const object of page.objects) {
      addObject(object);
      totalBytes += object.sizeBytes ?? 0;
    }
  }
  progress.total(totalBytes);

  const counts = {} as Record<ArchiveRecordKind, number>;
  for (const kind of ARCHIVE_RECORD_KINDS) {
    const { path } = ARCHIVE_RECORD_FILES[kind];
    zip.addReadStreamLazy(path, entry, (done) => {
      const lines = ndjson(deps, sellerId, kind, listed, (records) => {
        counts[kind] = (counts[kind] ?? 0) + records;
        progress.records(records);
      });
      done(null, fingerprinted(path, Readable.from(lines), false));
    });
  }

  // Reached after every other entry is written: the counts and hashes are complete.
  zip.addReadStreamLazy(MANIFEST_PATH, entry, (done) => {
    const manifest: ArchiveManifest = {
      format: STORE_ARCHIVE_FORMAT,
      version: STORE_ARCHIVE_VERSION,
      exportedAt: exportedAt.toISOString(),
      store: { id: sellerId, name: store.record.name },
      source: { instanceUrl: deps.appUrl },
      counts: Object.fromEntries(ARCHIVE_RECORD_KINDS.map((kind) => [kind, counts[kind] ?? 0])) as Record<
        ArchiveRecordKind,
        number
      >,
      files: [...listed].map(([path, file]) => ({ path, ...file })),
    };
    done(null, Readable.from([jsonBytes(manifest)]));
  });
  zip.end();
  return output;
}

/** One kind's records, a line each, a page at a time; product files get the SHA-256 their bytes had. */
async function* ndjson(
  deps: Pick<StoreExportDeps, "db">,
  sellerId: string,
  kind: ArchiveRecordKind,
  listed: Map<string, { sha256: string }>,
  counted: (records: number) => void,
): AsyncGenerator<Buffer> {
  for await (const page of RECORD_READERS[kind](deps.db, sellerId)) {
    if (page.records.length === 0) continue;
    const records =
      kind === "products" ? (page.records as ArchiveProduct[]).map(withHashes(listed)) : page.records;
    yield Buffer.from(records.map((record) => `${JSON.stringify(record)}\n`).join(""));
    counted(page.records.length);
  }
}

/**
 * A file added to the product while the archive was written has no bytes in it: its `sha256` stays null
 * (docs/export-format.md says to export again).
 */
const withHashes = (listed: Map<string, { sha256: string }>) => (product: ArchiveProduct) => ({
  ...product,
  files: product.files.map((file) => ({ ...file, sha256: listed.get(file.path)?.sha256 ?? null })),
});

const jsonBytes = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

/** Counts and hashes the bytes passing through; tells the total and the SHA-256 at the end. */
class Fingerprint extends Transform {
  private readonly hash = createHash("sha256");
  private size = 0;

  constructor(
    private readonly onBytes: (count: number) => void,
    private readonly onEnd: (sizeBytes: number, sha256: string) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    this.onBytes(chunk.length);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.onEnd(this.size, this.hash.digest("hex"));
    callback();
  }
}
