import { sql } from "kysely";
import type { Database } from "../db/database";
import { AppError } from "./errors";

export interface RateRule {
  /** What is limited, e.g. "sign-in:email". */
  name: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Counts hits per key in fixed windows, in Postgres so every app instance shares the count.
 * Throws a 429 AppError once a key has used up its window.
 */
export async function enforceRateLimit(
  db: Database,
  rule: RateRule,
  subject: string,
  message: string,
  now: Date = new Date(),
): Promise<void> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const row = await db
    .insertInto("rate_limit_hits")
    .values({ key: `${rule.name}:${subject}`, window_start: windowStart, hits: 1 })
    .onConflict((conflict) =>
      conflict.columns(["key", "window_start"]).doUpdateSet({ hits: sql`rate_limit_hits.hits + 1` }),
    )
    .returning("hits")
    .executeTakeFirstOrThrow();
  if (row.hits > rule.limit) throw new AppError("rate_limited", 429, message);
}

export async function pruneRateLimits(db: Database, olderThan: Date): Promise<void> {
  await db.deleteFrom("rate_limit_hits").where("window_start", "<", olderThan).execute();
}
