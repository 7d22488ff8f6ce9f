import { mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { Kysely, sql } from "kysely";
import { openEmbedded } from "../../db/embedded";
import { PGliteDialect } from "../../db/pglite-dialect";
import type { DB } from "../../db/schema";
import {
  BackupError,
  type BackupManifest,
  extractBackup,
  isEmptyFolder,
  readDatabaseTar,
} from "./backup-archive";

export interface RestoredCounts {
  users: number;
  products: number;
  orders: number;
  productFiles: number;
}

export interface Restored {
  manifest: BackupManifest;
  counts: RestoredCounts;
}

/**
 * Restores an archive of `npm run backup` into `dataDir`, which must be empty (or not exist yet): a
 * restore never mixes with, or overwrites, data. The database is opened once (PostgreSQL's recovery runs,
 * as after a power cut: the dump holds exactly the committed transactions), counted and checkpointed. A
 * failed restore leaves the folder empty again.
 */
export async function restoreBackup(archive: string, dataDir: string): Promise<Restored> {
  if (!(await isEmptyFolder(dataDir)))
    throw new BackupError(
      `${dataDir} is not empty. A backup is restored only into an empty data folder: move this one away, or set DATA_DIR to a new folder.`,
    );
  await mkdir(dataDir, { recursive: true });
  try {
    const { manifest, databaseTar } = await extractBackup(archive, dataDir);
    const counts = await loadDatabase(databaseTar, path.join(dataDir, "db"));
    await rm(databaseTar, { force: true });
    return { manifest, counts };
  } catch (error) {
    for (const entry of await readdir(dataDir))
      await rm(path.join(dataDir, entry), { recursive: true, force: true });
    throw error;
  }
}

/** Unpacks the database's tar into `directory` through PGlite itself, then counts what it holds. */
async function loadDatabase(databaseTar: string, directory: string): Promise<RestoredCounts> {
  await mkdir(directory, { recursive: true });
  const pglite = openEmbedded(directory, { loadDataDir: await readDatabaseTar(databaseTar) });
  await pglite.waitReady;
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  try {
    const counts = await countRows(db);
    await sql`checkpoint`.execute(db);
    return counts;
  } finally {
    await db.destroy();
    await pglite.close();
  }
}

/** What a restored database holds, for the operator to compare with what they expect. */
export async function countRows(db: Kysely<DB>): Promise<RestoredCounts> {
  const count = sql<number>`count(*)::int`.as("n");
  const [users, products, orders, productFiles] = await Promise.all([
    db.selectFrom("user").select(count).executeTakeFirstOrThrow(),
    db.selectFrom("products").select(count).executeTakeFirstOrThrow(),
    db.selectFrom("orders").select(count).executeTakeFirstOrThrow(),
    db.selectFrom("product_files").select(count).executeTakeFirstOrThrow(),
  ]);
  return { users: users.n, products: products.n, orders: orders.n, productFiles: productFiles.n };
}
