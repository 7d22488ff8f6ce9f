/**
 * What `npm run backup [-- <file>]` and `npm run restore -- <archive>` do (backup-cli.ts; docs/operations.md).
 *
 * The embedded database belongs to the one process that opened it: a second PGlite on the same folder
 * would corrupt it. So a backup is taken by the running server (GET /api/operations/backup, only from this
 * machine and only with a token derived from the auth secret, which this CLI reads like the server does);
 * when no server answers, the CLI opens the stopped database itself and takes the same backup.
 */
import { existsSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type Config, loadBackupConfig, loadConfig } from "../../config";
import { openDatabase } from "../../db/database";
import { BackupError, type BackupManifest, inspectBackup, writeBackup } from "./backup-archive";
import { latestSchemaVersion } from "./feature";
import { backupToken } from "./operator-access";
import { type Restored, restoreBackup } from "./restore";

const POSTGRES_RECIPE = `The database is PostgreSQL (DATABASE_URL): back it up with PostgreSQL's own tools, e.g.
  pg_dump --format=custom --file=flatfee-$(date +%F).dump "$DATABASE_URL"
and restore into an empty database with
  pg_restore --no-owner --dbname="$NEW_DATABASE_URL" flatfee-YYYY-MM-DD.dump
Files in S3 are copied with the bucket's tools, e.g.
  aws s3 sync s3://$S3_BUCKET ./flatfee-files-$(date +%F)   (or: rclone sync, mc mirror)
See docs/operations.md, "Backups".`;

/** The server's address on this machine: the backup route answers only the loopback address. */
export function localServerUrl(config: Pick<Config, "host" | "port">): string {
  return config.host === "::1" ? `http://[::1]:${config.port}` : `http://127.0.0.1:${config.port}`;
}

const isConnectionRefused = (error: unknown): boolean =>
  (error as { cause?: { code?: string } })?.cause?.code === "ECONNREFUSED";

/** Asks the running server for a backup; undefined when no server listens. */
async function downloadFromServer(config: Config, file: string): Promise<"downloaded" | undefined> {
  const response = await fetch(`${localServerUrl(config)}/api/operations/backup`, {
    headers: { authorization: `Bearer ${backupToken(config.authSecret)}` },
  }).catch((error: unknown) => {
    if (isConnectionRefused(error)) return undefined;
    throw error;
  });
  if (!response) return undefined;
  if (response.status !== 200 || !response.body)
    throw new BackupError(
      `The server at ${localServerUrl(config)} refused the backup (${response.status}): ${await response.text()}`,
    );
  const output = await open(file, "wx", 0o600);
  await pipeline(
    Readable.fromWeb(response.body as import("node:stream/web").ReadableStream),
    output.createWriteStream(),
  );
  return "downloaded";
}

/** The stopped embedded database, opened by this process for the time of the backup. */
async function backUpStoppedServer(config: Config, file: string): Promise<void> {
  if (config.database.kind !== "pglite") throw new BackupError(POSTGRES_RECIPE);
  const directory = config.database.directory;
  if (!existsSync(path.join(directory, "PG_VERSION")))
    throw new BackupError(`There is no database in ${directory} (DATA_DIR) to back up.`);
  if (existsSync(path.join(directory, "postmaster.pid")))
    throw new BackupError(
      `No server answers at ${localServerUrl(config)}, but the database in ${directory} is open (a server on another address or port) or was not closed (the server was killed). Start the server and run npm run backup again: the running server takes the backup.`,
    );
  const database = await openDatabase(config.database, console);
  try {
    const output = await open(file, "wx", 0o600);
    await writeBackup(
      {
        dumpDatabase: database.dumpEmbedded!,
        schemaVersion: latestSchemaVersion(),
        now: () => new Date(),
        ...(config.s3 ? {} : { storageRoot: path.join(config.dataDir, "storage") }),
        dataDir: config.dataDir,
      },
      output.createWriteStream(),
    );
  } finally {
    await database.close();
  }
}

const defaultArchiveName = (at: Date) =>
  `flatfee-backup-${at
    .toISOString()
    .replace(/[:.]/g, "-")
    .replace(/-\d{3}Z$/, "Z")}.tar.gz`;

/** Takes a backup into `target` (a new file): from the running server, else from the stopped database. */
export async function backup(
  target: string | undefined,
): Promise<{ file: string; manifest: BackupManifest }> {
  if (loadBackupConfig().postgres) throw new BackupError(POSTGRES_RECIPE);
  const config = loadConfig();
  const file = path.resolve(target ?? defaultArchiveName(new Date()));
  if (existsSync(file)) throw new BackupError(`${file} already exists: name another file.`);
  // Written beside its final name and renamed once checked: a cut backup never looks like a good one.
  const partial = `${file}.part`;
  try {
    if (!(await downloadFromServer(config, partial))) await backUpStoppedServer(config, partial);
    const manifest = await inspectBackup(partial);
    await rename(partial, file);
    return { file, manifest };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/** Restores an archive into DATA_DIR, which must be empty; embedded mode only. */
export async function restore(archive: string): Promise<{ dataDir: string } & Restored> {
  const config = loadBackupConfig();
  if (config.postgres)
    throw new BackupError(
      `npm run restore restores the embedded database, and DATABASE_URL is set.\n${POSTGRES_RECIPE}`,
    );
  return { dataDir: config.dataDir, ...(await restoreBackup(path.resolve(archive), config.dataDir)) };
}

export const S3_NOTE =
  "The files are in S3 and not in this backup: copy the bucket with its own tools (docs/operations.md, Backups).";
