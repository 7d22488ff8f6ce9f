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
 * A sliding-window counter per key, in Postgres so every app instance shares it: the hits of the
 * current window plus the previous window's, weighted by how much of it still lies within the last
 * `windowSeconds`. Unlike plain fixed windows, a burst straddling a window boundary is still caught.
 * Throws a 429 AppError once the estimate passes the limit.
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
  const previousStart = new Date(windowStart.getTime() - windowMs);
  const key = `${rule.name}:${subject}`;
  const current = await db
    .insertInto("rate_limit_hits")
    .values({ key, window_start: windowStart, hits: 1 })
    .onConflict((conflict) =>
      conflict.columns(["key", "window_start"]).doUpdateSet({ hits: sql`rate_limit_hits.hits + 1` }),
    )
    .returning("hits")
    .executeTakeFirstOrThrow();
  const previous = await db
    .selectFrom("rate_limit_hits")
    .select("hits")
    .where("key", "=", key)
    .where("window_start", "=", previousStart)
    .executeTakeFirst();
  const previousWeight = 1 - (now.getTime() - windowStart.getTime()) / windowMs;
  const estimate = current.hits + (previous?.hits ?? 0) * previousWeight;
  if (estimate > rule.limit) throw new AppError("rate_limited", 429, message);
}

export async function pruneRateLimits(db: Database, olderThan: Date): Promise<void> {
  await db.deleteFrom("rate_limit_hits").where("window_start", "<", olderThan).execute();
}
