import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { mkdir, open, readdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { BACKED_UP_BUCKETS, type BackedUpBucket, isSafeKey } from "../../adapters/storage/objects";

/**
 * One backup of the embedded mode: one tar.gz with, in this order, the database (PGlite's data directory
 * as one tar, taken between two statements), the local files of both buckets, the data folder's own files
 * (the generated secrets, the Stripe emulator's state) and last the manifest, which counts what came
 * before it: an archive without it, or whose counts differ, was cut short and is refused.
 */
export const BACKUP_FORMAT = "flatfee-backup";
export const BACKUP_FORMAT_VERSION = 1;
const MANIFEST_ENTRY = "manifest.json";
const DATABASE_ENTRY = "database/pgdata.tar";
const STORAGE_PREFIX = "storage/";
const DATA_PREFIX = "data/";
/** The data folder's files a restored copy needs: the secrets (sessions, links) and the emulator's state. */
export const DATA_FILES = ["local-secrets.json", "stripe-emulator.json"] as const;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  /** The last migration the database had run: the schema the database is at. */
  schemaVersion: string;
  createdAt: string;
  database: { kind: "pglite"; entry: string; bytes: number };
  /** The local files; `included: false` when they live in S3 (synced on their own: docs/operations.md). */
  files: { included: boolean; count: number; bytes: number; byBucket: Record<BackedUpBucket, number> };
  dataFiles: string[];
}

export interface BackupSource {
  /** The database's data directory as one uncompressed tar (DatabaseHandle.dumpEmbedded). */
  dumpDatabase(): Promise<Blob>;
  schemaVersion: string;
  /** The local storage's folder; absent when the files are in S3. */
  storageRoot?: string;
  /** The data folder, for DATA_FILES. */
  dataDir?: string;
  now: () => Date;
}

export class BackupError extends Error {
  override name = "BackupError";
}

type Pack = import("tar-stream").Pack;

/** Adds one entry and resolves once tar-stream has taken all of its bytes (backpressure: memory stays flat). */
function addEntry(pack: Pack, name: string, size: number, body: Readable, mtime: Date): Promise<void> {
  return new Promise((resolve, reject) => {
    const sink = pack.entry({ name, size, mode: 0o600, mtime }, (error) =>
      error ? reject(error) : resolve(),
    );
    body.once("error", (error) => {
      sink.destroy(error);
      reject(error);
    });
    body.pipe(sink as unknown as NodeJS.WritableStream);
  });
}

/** Every file under `dir`, as paths relative to it with `/`, depth first; a folder removed meanwhile is skipped. */
async function* filesUnder(dir: string, prefix = ""): AsyncGenerator<string> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* filesUnder(path.join(dir, entry.name), relative);
    else if (entry.isFile()) yield relative;
  }
}

/**
 * Adds one stored file as it is now. Files are written to `.incoming` and renamed into place when complete,
 * so a file under a bucket is whole; one deleted since the listing is skipped (answers false). The open
 * handle keeps the bytes readable even if the file is replaced or deleted while it is copied.
 */
async function addStoredFile(pack: Pack, file: string, name: string): Promise<number | undefined> {
  const handle = await open(file, "r").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (!handle) return undefined;
  try {
    const { size, mtime } = await handle.stat();
    const body =
      size === 0
        ? Readable.from([])
        : handle.createReadStream({ start: 0, end: size - 1, autoClose: false, highWaterMark: 1024 * 1024 });
    await addEntry(pack, name, size, body, mtime);
    return size;
  } finally {
    await handle.close();
  }
}

/**
 * Writes a backup to `output`, streamed: only the database's tar is held in memory (PGlite hands it over
 * whole), every file goes through in chunks. The database is dumped first, then the files are listed: a
 * file written before a row that names it is on disk before the listing, so every file the backed-up
 * database knows is in the archive (files written afterwards may be too; nothing refers to them).
 */
export async function writeBackup(source: BackupSource, output: Writable): Promise<BackupManifest> {
  const tar = await import("tar-stream");
  const createdAt = source.now();
  const database = await source.dumpDatabase();
  const pack = tar.pack();
  const written = pipeline(pack as unknown as Readable, createGzip(), output);
  // A failure of the output (a full disk, a client gone) ends the writing below through the pack.
  written.catch((error: unknown) => pack.destroy(error as Error));
  try {
    await addEntry(
      pack,
      DATABASE_ENTRY,
      database.size,
      Readable.fromWeb(database.stream() as import("node:stream/web").ReadableStream),
      createdAt,
    );
    const files = await addStorage(pack, source.storageRoot);
    const dataFiles = await addDataFiles(pack, source.dataDir);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      schemaVersion: source.schemaVersion,
      createdAt: createdAt.toISOString(),
      database: { kind: "pglite", entry: DATABASE_ENTRY, bytes: database.size },
      files,
      dataFiles,
    };
    const body = Buffer.from(JSON.stringify(manifest, null, 2));
    await addEntry(pack, MANIFEST_ENTRY, body.length, Readable.from([body]), createdAt);
    pack.finalize();
    await written;
    return manifest;
  } catch (error) {
    pack.destroy(error as Error);
    await written.catch(() => {});
    throw error;
  }
}

async function addStorage(pack: Pack, storageRoot: string | undefined): Promise<BackupManifest["files"]> {
  const files = {
    included: storageRoot !== undefined,
    count: 0,
    bytes: 0,
    byBucket: Object.fromEntries(BACKED_UP_BUCKETS.map((bucket) => [bucket, 0])) as Record<
      BackedUpBucket,
      number
    >,
  };
  if (!storageRoot) return files;
  for (const bucket of BACKED_UP_BUCKETS) {
    for await (const key of filesUnder(path.join(storageRoot, bucket))) {
      if (!isSafeKey(key)) continue; // never written by the storage adapter
      const size = await addStoredFile(
        pack,
        path.join(storageRoot, bucket, key),
        `${STORAGE_PREFIX}${bucket}/${key}`,
      );
      if (size === undefined) continue;
      files.count++;
      files.bytes += size;
      files.byBucket[bucket]++;
    }
  }
  return files;
}

async function addDataFiles(pack: Pack, dataDir: string | undefined): Promise<string[]> {
  const added: string[] = [];
  if (!dataDir) return added;
  for (const name of DATA_FILES) {
    if ((await addStoredFile(pack, path.join(dataDir, name), `${DATA_PREFIX}${name}`)) !== undefined)
      added.push(name);
  }
  return added;
}

/** Where an archive's entry goes in the data folder; anything else in an archive is refused. */
export function entryTarget(
  name: string,
):
  | { kind: "manifest" }
  | { kind: "database" }
  | { kind: "file"; bucket: BackedUpBucket; key: string }
  | { kind: "data"; name: string } {
  if (name === MANIFEST_ENTRY) return { kind: "manifest" };
  if (name === DATABASE_ENTRY) return { kind: "database" };
  if (name.startsWith(STORAGE_PREFIX)) {
    const rest = name.slice(STORAGE_PREFIX.length);
    const slash = rest.indexOf("/");
    const bucket = rest.slice(0, slash) as BackedUpBucket;
    const key = rest.slice(slash + 1);
    if (slash > 0 && BACKED_UP_BUCKETS.includes(bucket) && isSafeKey(key))
      return { kind: "file", bucket, key };
  }
  if (name.startsWith(DATA_PREFIX)) {
    const file = name.slice(DATA_PREFIX.length);
    if ((DATA_FILES as readonly string[]).includes(file)) return { kind: "data", name: file };
  }
  throw new BackupError(`Not a Flatfee backup: unexpected entry ${JSON.stringify(name)}`);
}

export function parseManifest(text: string): BackupManifest {
  const manifest = JSON.parse(text) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT) throw new BackupError("Not a Flatfee backup: no manifest of ours");
  if (manifest.formatVersion !== BACKUP_FORMAT_VERSION)
    throw new BackupError(`Backup format ${manifest.formatVersion} is not one this version reads`);
  return manifest;
}

/** Whether a folder has nothing in it (a missing folder counts as empty). */
export async function isEmptyFolder(folder: string): Promise<boolean> {
  if (!existsSync(folder)) return true;
  if (!(await stat(folder)).isDirectory()) return false;
  return (await readdir(folder)).length === 0;
}

type EntryTarget = ReturnType<typeof entryTarget>;

/**
 * Reads an archive entry by entry (streamed, one at a time), handing each entry but the manifest to
 * `onEntry`, then checks the manifest's counts against what came: a cut archive is refused.
 */
async function readArchive(
  archive: string,
  onEntry: (target: Exclude<EntryTarget, { kind: "manifest" }>, body: Readable) => Promise<void>,
): Promise<BackupManifest> {
  const tar = await import("tar-stream");
  const extract = tar.extract();
  const feeding = pipeline(createReadStream(archive), createGunzip(), extract as unknown as Writable);
  feeding.catch(() => {}); // a broken archive also ends the iteration below, with its error
  let manifest: BackupManifest | undefined;
  const seen = { files: 0, bytes: 0, database: -1 };
  for await (const entry of extract) {
    if (manifest) throw new BackupError("Not a Flatfee backup: entries after the manifest");
    if (entry.header.type !== "file") throw new BackupError(`Unexpected ${entry.header.type} in the archive`);
    const target = entryTarget(entry.header.name);
    const body = entry as unknown as Readable;
    if (target.kind === "manifest") {
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      manifest = parseManifest(Buffer.concat(chunks).toString("utf8"));
      continue;
    }
    await onEntry(target, body);
    if (target.kind === "database") seen.database = entry.header.size;
    if (target.kind === "file") {
      seen.files++;
      seen.bytes += entry.header.size;
    }
  }
  await feeding;
  if (!manifest) throw new BackupError("The archive is incomplete: it has no manifest (cut short?)");
  if (
    seen.database !== manifest.database.bytes ||
    seen.files !== manifest.files.count ||
    seen.bytes !== manifest.files.bytes
  )
    throw new BackupError("The archive is incomplete: its entries do not match its manifest");
  return manifest;
}

/** Reads a whole archive without unpacking it: its manifest, once every entry it counts is there. */
export function inspectBackup(archive: string): Promise<BackupManifest> {
  return readArchive(archive, async (_target, body) => {
    for await (const _chunk of body); // read through
  });
}

export interface ExtractedBackup {
  manifest: BackupManifest;
  /** The database's tar, unpacked next to the data (the caller loads it, then deletes it). */
  databaseTar: string;
}

/**
 * Unpacks an archive into an empty data folder: files to `storage/<bucket>/<key>`, the data files to the
 * folder itself, the database's tar to `databaseTar`; refuses a cut archive (readArchive).
 */
export async function extractBackup(archive: string, dataDir: string): Promise<ExtractedBackup> {
  const databaseTar = path.join(dataDir, ".restore-pgdata.tar");
  const manifest = await readArchive(archive, async (target, body) => {
    const destination =
      target.kind === "database"
        ? databaseTar
        : target.kind === "data"
          ? path.join(dataDir, target.name)
          : path.join(dataDir, "storage", target.bucket, target.key);
    await mkdir(path.dirname(destination), { recursive: true });
    await pipeline(body, createWriteStream(destination, { flags: "wx", mode: 0o600 }));
  });
  return { manifest, databaseTar };
}

/** The database's tar as PGlite loads it. */
export async function readDatabaseTar(file: string): Promise<Blob> {
  return new Blob([await readFile(file)], { type: "application/x-tar" });
}

export const removeFile = (file: string) => rm(file, { force: true });
