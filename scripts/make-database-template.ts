// Run by scripts/build-if-stale.mjs: a new embedded database with every migration applied, written as a
// PGlite data directory tarball to the path given. The compiled server starts a new DATA_DIR's database
// from it, since creating a database cluster (initdb) and migrating it is most of a first start's time.
// Migrations added later still run at start: the template is only ever behind, never ahead.
import { writeFileSync } from "node:fs";
import { Kysely } from "kysely";
import { migrateToLatest } from "../src/server/db/database";
import { openEmbedded } from "../src/server/db/embedded";
import { PGliteDialect } from "../src/server/db/pglite-dialect";
import type { DB } from "../src/server/db/schema";

const [file] = process.argv.slice(2);
if (!file) throw new Error("usage: tsx scripts/make-database-template.ts <file.tgz>");
const pglite = openEmbedded();
await migrateToLatest(new Kysely<DB>({ dialect: new PGliteDialect(pglite) }));
const tarball = await pglite.dumpDataDir("gzip");
await pglite.close();
writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
