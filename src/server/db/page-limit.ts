import { sql } from "kysely";

/**
 * The LIMIT of a page (a number the route has checked), as a literal rather than a parameter: a
 * prepared statement with a parameter limit gets a plan sized for an unknown number of rows, which
 * PostgreSQL rejects in favour of planning every request anew. Page sizes are few, so are the texts.
 */
export const pageLimit = (rows: number) => {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new Error(`Not a page size: ${rows}`);
  return sql.lit(rows);
};
