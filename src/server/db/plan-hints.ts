import { sql } from "kysely";

/** In a statement's text (`planPerValues`): never named, so PostgreSQL plans it with each run's values. */
export const PLAN_PER_VALUES = "/* planned per values */";

/**
 * Appended to a statement (Kysely's `modifyEnd`) whose best plan depends on its values, such as a search
 * term that matches 3 rows or all of them: a named statement soon runs one generic plan for every value.
 * Kept apart from prepared-statements.ts, which loads pg, so features can use it on PGlite too.
 */
export const planPerValues = sql.raw(PLAN_PER_VALUES);
