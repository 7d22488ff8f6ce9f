import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/**
 * Every embedded database is opened through here, with the extensions our migrations create (pg_trgm:
 * the customers search's trigram index, migration 0020). PGlite loads an extension only when it is
 * named at open, so the server, the test template and the built template (scripts/make-database-template.ts)
 * must all open it the same way.
 */
export const embeddedExtensions = { pg_trgm };

/**
 * One options object: PGlite ignores its second argument when the first (the data directory) is
 * undefined, which is how an in-memory database opened with its options silently lost them.
 */
export function openEmbedded(
  dataDir?: string,
  options: Omit<PGliteOptions, "extensions" | "dataDir"> = {},
): PGlite {
  return new PGlite({
    ...options,
    ...(dataDir === undefined ? {} : { dataDir }),
    extensions: embeddedExtensions,
  });
}
