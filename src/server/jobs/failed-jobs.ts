import type { Database } from "../db/database";

/** Failed jobs are kept this long for the operator to look at and retry (npm run jobs). */
export const FAILED_JOBS_KEPT_MS = 30 * 24 * 60 * 60_000;

export interface FailedJob {
  id: number;
  name: string;
  payload: unknown;
  attempts: number;
  lastError: string | null;
  failedAt: Date | null;
}

/** The failed jobs, newest first. */
export async function listFailedJobs(db: Database, limit = 100): Promise<FailedJob[]> {
  const rows = await db
    .selectFrom("jobs")
    .select(["id", "name", "payload", "attempts", "last_error", "failed_at"])
    .where("status", "=", "failed")
    .orderBy("failed_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    payload: row.payload,
    attempts: row.attempts,
    lastError: row.last_error,
    failedAt: row.failed_at,
  }));
}

/** Gives a failed job a new set of tries, now. False when there is no such failed job. */
export async function retryFailedJob(db: Database, id: number, now: Date): Promise<boolean> {
  const retried = await db
    .updateTable("jobs")
    .set({ status: "pending", attempts: 0, run_at: now, failed_at: null })
    .where("id", "=", id)
    .where("status", "=", "failed")
    .returning("id")
    .executeTakeFirst();
  return retried !== undefined;
}

export async function pruneFailedJobs(db: Database, now: Date): Promise<void> {
  await db
    .deleteFrom("jobs")
    .where("status", "=", "failed")
    .where("failed_at", "<", new Date(now.getTime() - FAILED_JOBS_KEPT_MS))
    .execute();
}
