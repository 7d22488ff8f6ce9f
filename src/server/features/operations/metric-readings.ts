import { sql } from "kysely";
import type { Database } from "../../db/database";

/** Seconds from `since` to `now`, never negative (a row's clock may be a moment ahead of ours). */
const secondsSince = (since: Date | string | null, now: Date): number =>
  since === null ? 0 : Math.max(0, (now.getTime() - new Date(since).getTime()) / 1000);

export interface QueueReading {
  kind: string;
  /** Jobs due now and not being run: waiting for a slot. */
  ready: number;
  /** How long the longest-waiting of them has been due, in seconds. */
  oldestReadySeconds: number;
}

/**
 * The queue's backlog by kind: pending jobs whose time has come, and since when the oldest has waited. A running job's `run_at` is its lease's
 * end (in the future), so it does not count. One range read of the pending index (jobs_due_idx).
 */
export async function readJobQueue(db: Database, now: Date): Promise<QueueReading[]> {
  const rows = await db
    .selectFrom("jobs")
    // A job due at once has a `run_at` in the past (the epoch): it became due when it was created.
    .select([
      "name",
      sql<number>`count(*)::int`.as("ready"),
      sql<Date>`min(greatest(run_at, created_at))`.as("oldest"),
    ])
    .where("status", "=", "pending")
    .where("run_at", "<=", now)
    .groupBy("name")
    .execute();
  return rows.map((row) => ({
    kind: row.name,
    ready: row.ready,
    oldestReadySeconds: secondsSince(row.oldest, now),
  }));
}

/** Jobs that used up their tries and wait for an operator (`npm run jobs`), by kind (jobs_failed_idx). */
export async function readFailedJobs(db: Database): Promise<Array<{ kind: string; failed: number }>> {
  const rows = await db
    .selectFrom("jobs")
    .select(["name", sql<number>`count(*)::int`.as("failed")])
    .where("status", "=", "failed")
    .groupBy("name")
    .execute();
  return rows.map((row) => ({ kind: row.name, failed: row.failed }));
}

export interface OutboxReading {
  /** Emails not sent yet (waiting for their first try or a retry). */
  unsent: number;
  /** Age of the oldest of them, in seconds; 0 when there is none. */
  oldestUnsentSeconds: number;
}

/**
 * The mail outbox's lag: unsent emails and the oldest one's age, from its pending index
 * (outbox_emails_due_idx). Emails that gave up show as failed `mail.send` jobs.
 */
export async function readOutbox(db: Database, now: Date): Promise<OutboxReading> {
  const pending = await db
    .selectFrom("outbox_emails")
    .select([sql<number>`count(*)::int`.as("unsent"), sql<Date | null>`min(created_at)`.as("oldest")])
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  return { unsent: pending.unsent, oldestUnsentSeconds: secondsSince(pending.oldest, now) };
}

export interface WebhookReading {
  /** Deliveries that gave up after their last try (kept 30 days). */
  failed: number;
  /** Deliveries still being retried after a failed attempt. */
  retrying: number;
}

/** Sellers' webhook deliveries that failed: given up, and failing but still retried. */
export async function readWebhookDeliveries(db: Database): Promise<WebhookReading> {
  const row = await db
    .selectFrom("webhook_deliveries")
    .select([
      sql<number>`count(*) filter (where status = 'failed')::int`.as("failed"),
      sql<number>`count(*) filter (where status = 'pending' and attempts > 0)::int`.as("retrying"),
    ])
    .where("status", "in", ["failed", "pending"])
    .executeTakeFirstOrThrow();
  return { failed: row.failed, retrying: row.retrying };
}
