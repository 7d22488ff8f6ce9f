/**
 * Writes docs/export-format.schema.json, the JSON Schema of the store archive (docs/export-format.md),
 * from the zod schemas in src/contracts/store-archive.ts, formatted as the repository formats JSON.
 * Run after changing the archive's records: `npx tsx scripts/write-export-schema.ts`, and commit the
 * file. `src/contracts/store-archive.test.ts` fails while the committed file differs from the schemas.
 */
import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { STORE_ARCHIVE_SCHEMA_FILE, storeArchiveJsonSchema } from "../src/contracts/store-archive";

const file = path.resolve(STORE_ARCHIVE_SCHEMA_FILE);
await writeFile(file, `${JSON.stringify(storeArchiveJsonSchema(), null, 2)}\n`);
const formatted = spawnSync("npx", ["biome", "format", "--write", file], { stdio: "inherit" });
if (formatted.status !== 0) process.exit(formatted.status ?? 1);
console.info(`Wrote ${path.relative(process.cwd(), file)}`);
