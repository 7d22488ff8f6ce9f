import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Kysely } from "kysely";
import { migrateToLatest } from "../../src/server/db/database";
import { openEmbedded } from "../../src/server/db/embedded";
import { PGliteDialect } from "../../src/server/db/pglite-dialect";
import type { DB } from "../../src/server/db/schema";

/**
 * Creating an embedded database (PGlite's initdb) and migrating it takes seconds, most of a test file's
 * setup; unpacking a migrated one takes a fraction of that. The test runs' global setups make one template
 * per run, which every test file's database (and every browser journey's server) then starts from.
 * Tests on PostgreSQL (TEST_DATABASE_URL) create real databases and need none.
 */
export const TEMPLATE_ENV = "FLATFEE_TEST_PGLITE_TEMPLATE";

/** Makes the run's template and answers how to remove it again (the global setup's teardown). */
export async function makeTestDatabaseTemplate(directory: string): Promise<() => void> {
  if (process.env.TEST_DATABASE_URL) return () => {};
  const file = path.resolve(directory, `pglite-template-${process.pid}.tgz`);
  mkdirSync(path.dirname(file), { recursive: true });
  const pglite = openEmbedded();
  await migrateToLatest(new Kysely<DB>({ dialect: new PGliteDialect(pglite) }));
  const tarball = await pglite.dumpDataDir("gzip");
  await pglite.close();
  writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
  // Test workers are started after the global setup and inherit its environment.
  process.env[TEMPLATE_ENV] = file;
  return () => rmSync(file, { force: true });
}

/** The template this run made, if any. */
export const testDatabaseTemplate = (): string | undefined => process.env[TEMPLATE_ENV];
