import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Logger } from "pino";
import type { Database } from "../db/database";
import type { Notifications } from "../db/notifications";

/**
 * The one queue for background work (docs/background-jobs.md). A job is a row of `jobs`, inserted in
 * the caller's transaction: it exists exactly when the change that asked for it committed. Each
 * instance claims due rows with FOR UPDATE SKIP LOCKED and a lease it renews while the job runs; an
 * instance that dies leaves the lease to run out, and another (or itself, restarted) runs the job again.
 * Handlers therefore finish what an earlier, interrupted run of the same job began.
 */

/** A kind of job: its name and the payload it takes. Features declare these; handlers run them. */
export interface JobKind<Payload> {
  readonly name: string;
  /** Type-only: the payload a job of this kind carries. */
  readonly payload?: Payload;
}

export function jobKind<Payload extends object>(name: string): JobKind<Payload> {
  return { name };
}

const DUE_NOW = new Date(0);

/** Committed jobs wake every instance's queue through the database (delivered at commit, never before). */
export const JOBS_CHANNEL = "flatfee_jobs";

export interface EnqueueOptions {
  /** Not before (retries and schedules); now by default. */
  runAt?: Date;
  /** At most one pending job with this key: enqueueing another does nothing. */
  uniqueKey?: string;
  /** Jobs of one group run one at a time on an instance (a seller's PDF stamps). */
  group?: string;
  /** With `uniqueKey`: a pending job of that key starts over (new tries, due now) instead. */
  restart?: boolean;
}

/** Adds a job in `db`, the caller's transaction when it has one. */
export async function enqueueJob<Payload>(
  db: Database,
  kind: JobKind<Payload>,
  payload: Payload,
  options: EnqueueOptions = {},
): Promise<void> {
  await db
    .insertInto("jobs")
    .values({
      name: kind.name,
      payload: JSON.stringify(payload),
      // Due now whatever the clocks say (the app's, which tests move, and the database server's).
      run_at: options.runAt ?? DUE_NOW,
      unique_key: options.uniqueKey ?? null,
      group_key: options.group ?? null,
    })
    .onConflict((conflict) => {
      // The partial unique index's own predicate, as literals: PostgreSQL matches an index to ON CONFLICT
      // only by a predicate it can prove, which a bound parameter is not.
      const pending = conflict
        .column("unique_key")
        .where(sql<boolean>`status = 'pending' and unique_key is not null`);
      return options.restart
        ? pending.doUpdateSet({ run_at: sql`excluded.run_at`, attempts: 0, last_error: null })
        : pending.doNothing();
    })
    .execute();
  await sql`select pg_notify(${JOBS_CHANNEL}, ${kind.name})`.execute(db);
}

/** What a run may answer: nothing (done), or "again" (more to do: run it again now, a new job's tries). */
export type JobOutcome = undefined | "again";

/** How a kind of job runs. Registered once, in the feature that owns it (see app.ts). */
export interface JobHandler<Payload = never> {
  kind: JobKind<Payload>;
  run(
    payload: Payload,
    context: { jobId: number; attempt: number; now: Date },
  ): Promise<JobOutcome | undefined>;
  /** Tries before the job is kept as failed (5 by default). Recurring jobs never fail: they run again. */
  maxAttempts?: number;
  /** The wait after the `attempt`-th failed try (30 s, 1 min, 2 min… capped at an hour by default). */
  retryDelayMs?(attempt: number): number;
  /** Jobs of this kind one instance runs at once (1 by default). */
  concurrency?: number;
  /** After the last try failed: the job is kept as failed, and the feature records why. */
  gaveUp?(payload: Payload, error: unknown, now: Date): Promise<void>;
  /** Housekeeping: one job of this kind always exists, run this long after its last run. */
  everyMs?: number;
}

// biome-ignore lint/suspicious/noExplicitAny: handlers of every payload live in one registry
type AnyHandler = JobHandler<any>;

export const defaultRetryDelayMs = (attempt: number): number =>
  Math.min(30_000 * 2 ** (attempt - 1), 3_600_000);

export interface JobQueueDeps {
  db: Database;
  now: () => Date;
  log: Pick<Logger, "warn" | "error">;
  /** A running job's lease, renewed every third of it: how long a dead instance's job waits. */
  leaseMs?: number;
  /** How often due jobs are looked for without a wake-up (retries, schedules). */
  pollMs?: number;
}

const DEFAULT_LEASE_MS = 60_000;
const DEFAULT_POLL_MS = 2_000;

type ClaimedJob = {
  id: number;
  name: string;
  payload: unknown;
  attempts: number;
  group_key: string | null;
  lease: string;
};

export class JobQueue {
  private readonly handlers = new Map<string, AnyHandler>();
  private readonly runningByKind = new Map<string, number>();
  private readonly busyGroups = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();
  private filling = false;
  private fillAgain = false;
  private ran = 0;
  private waiters: Array<{ resolve: (ran: number) => void; reject: (error: unknown) => void }> = [];
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private readonly leaseMs: number;

  constructor(private readonly deps: JobQueueDeps) {
    this.leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  }

  register(...handlers: AnyHandler[]): void {
    for (const handler of handlers) {
      if (this.handlers.has(handler.kind.name))
        throw new Error(`Job ${handler.kind.name} is registered twice`);
      this.handlers.set(handler.kind.name, handler);
    }
  }

  /**
   * Schedules the housekeeping, then works in the background: on every committed job (the database's
   * notification), and every poll. Tests that move the clock themselves leave the housekeeping out.
   */
  async start(options: { notifications?: Notifications; housekeeping?: boolean } = {}): Promise<void> {
    const { notifications, housekeeping = true } = options;
    this.stopped = false;
    if (housekeeping) await this.ensureSchedules();
    this.unlisten = await notifications?.listen(JOBS_CHANNEL, () => this.kick());
    this.timer = setInterval(() => this.kick(), this.deps.pollMs ?? DEFAULT_POLL_MS);
    this.timer.unref();
    this.kick();
  }

  /** Stops claiming and waits for the jobs running, whatever their outcome (it has been logged). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.unlisten?.();
    this.unlisten = undefined;
    await this.idle();
  }

  /** Whether the queue was started and not stopped: it claims jobs on its own (/api/ready asks). */
  isRunning(): boolean {
    return this.timer !== undefined && !this.stopped;
  }

  /** Runs what is due until nothing is left that this instance can take; resolves with how many ran. */
  runDue(): Promise<number> {
    const idle = new Promise<number>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.fill();
    return idle;
  }

  /** Waits until no job is running here. */
  idle(): Promise<unknown> {
    return new Promise<unknown>((resolve) => {
      this.waiters.push({ resolve, reject: resolve });
      this.settleIfIdle();
    });
  }

  /** Looks for due jobs now (a change queued some). */
  kick(): void {
    if (this.stopped) return;
    void this.runDue().catch((error: unknown) =>
      this.deps.log.error({ err: error }, "job queue round failed"),
    );
  }

  /** One pending row per recurring kind; an existing one (from an earlier start) keeps its time. */
  private async ensureSchedules(): Promise<void> {
    const now = this.deps.now();
    for (const handler of this.handlers.values()) {
      if (!handler.everyMs) continue;
      await enqueueJob(
        this.deps.db,
        handler.kind,
        {},
        { uniqueKey: scheduleKey(handler.kind.name), runAt: new Date(now.getTime() + handler.everyMs) },
      );
    }
  }

  /** Claims due jobs into the free slots (per kind, and one per group), then runs them. */
  private fill(): void {
    if (this.stopped) {
      this.settleIfIdle();
      return;
    }
    if (this.filling) {
      this.fillAgain = true;
      return;
    }
    this.filling = true;
    const claimAll = async () => {
      do {
        this.fillAgain = false;
        for (;;) {
          const kinds = this.kindsWithFreeSlots();
          if (kinds.length === 0) break;
          const job = await this.claim(kinds);
          if (!job) break;
          this.startJob(job);
        }
      } while (this.fillAgain);
    };
    claimAll().then(
      () => {
        this.filling = false;
        if (this.fillAgain) this.fill();
        else this.settleIfIdle();
      },
      (error: unknown) => {
        this.filling = false;
        const waiters = this.waiters;
        this.waiters = [];
        for (const waiter of waiters) waiter.reject(error);
      },
    );
  }

  private kindsWithFreeSlots(): string[] {
    return [...this.handlers.values()]
      .filter((handler) => (this.runningByKind.get(handler.kind.name) ?? 0) < (handler.concurrency ?? 1))
      .map((handler) => handler.kind.name);
  }

  /** The oldest due job of these kinds whose group is not busy here, leased to this run. */
  private async claim(kinds: string[]): Promise<ClaimedJob | undefined> {
    const { db } = this.deps;
    const now = this.deps.now();
    const lease = randomUUID();
    const busy = [...this.busyGroups];
    const job = await db
      .updateTable("jobs")
      .set({ lease, attempts: sql`attempts + 1`, run_at: new Date(now.getTime() + this.leaseMs) })
      .where(
        "id",
        "=",
        db
          .selectFrom("jobs")
          .select("id")
          .where("status", "=", "pending")
          .where("run_at", "<=", now)
          .where("name", "in", kinds)
          .$if(busy.length > 0, (query) =>
            query.where((eb) => eb.or([eb("group_key", "is", null), eb("group_key", "not in", busy)])),
          )
          .orderBy("run_at")
          .orderBy("id")
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      .returning(["id", "name", "payload", "attempts", "group_key"])
      .executeTakeFirst();
    return job ? { ...job, lease } : undefined;
  }

  private startJob(job: ClaimedJob): void {
    const handler = this.handlers.get(job.name)!;
    this.runningByKind.set(job.name, (this.runningByKind.get(job.name) ?? 0) + 1);
    if (job.group_key) this.busyGroups.add(job.group_key);
    const work: Promise<void> = this.runJob(handler, job)
      .catch((error: unknown) =>
        // Its record could not be written (the database is down): the lease runs out and it runs again.
        this.deps.log.error({ err: error, jobId: job.id, job: job.name }, "job could not be recorded"),
      )
      .finally(() => {
        this.runningByKind.set(job.name, (this.runningByKind.get(job.name) ?? 1) - 1);
        if (job.group_key) this.busyGroups.delete(job.group_key);
        this.inFlight.delete(work);
        this.ran++;
        this.fill();
      });
    this.inFlight.add(work);
  }

  private async runJob(handler: AnyHandler, job: ClaimedJob): Promise<void> {
    const renewal = this.renewLease(job);
    // Retries and the next run count from the try's start: the time a handler shows (a webhook's next
    // try) is the time the job becomes due.
    const startedAt = this.deps.now();
    let outcome: JobOutcome | undefined;
    try {
      outcome = await handler.run(job.payload, { jobId: job.id, attempt: job.attempts, now: startedAt });
    } catch (error) {
      return this.failed(handler, job, error, startedAt);
    } finally {
      clearInterval(renewal);
    }
    const mine = this.deps.db.updateTable("jobs").where("id", "=", job.id).where("lease", "=", job.lease);
    if (outcome === "again" || handler.everyMs) {
      const runAt = outcome === "again" ? DUE_NOW : after(startedAt, handler.everyMs ?? 0);
      await mine.set({ run_at: runAt, attempts: 0, lease: null, last_error: null }).execute();
      return;
    }
    await this.deps.db.deleteFrom("jobs").where("id", "=", job.id).where("lease", "=", job.lease).execute();
  }

  /** A failed try: again later, or (tries used up) kept as failed for the operator, and the feature told. */
  private async failed(handler: AnyHandler, job: ClaimedJob, error: unknown, startedAt: Date): Promise<void> {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
    this.deps.log.warn({ err: error, jobId: job.id, job: job.name, attempt: job.attempts }, "job failed");
    const mine = this.deps.db.updateTable("jobs").where("id", "=", job.id).where("lease", "=", job.lease);
    if (handler.everyMs) {
      await mine
        .set({ run_at: after(startedAt, handler.everyMs), attempts: 0, lease: null, last_error: message })
        .execute();
      return;
    }
    if (job.attempts < (handler.maxAttempts ?? 5)) {
      const delayMs = (handler.retryDelayMs ?? defaultRetryDelayMs)(job.attempts);
      await mine.set({ run_at: after(startedAt, delayMs), lease: null, last_error: message }).execute();
      return;
    }
    const now = this.deps.now();
    const kept = await mine
      .set({ status: "failed", failed_at: now, lease: null, last_error: message })
      .returning("id")
      .executeTakeFirst();
    if (kept) await handler.gaveUp?.(job.payload, error, now);
  }

  /** Keeps the job this run's while it runs: a long job is never taken by another instance. */
  private renewLease(job: { id: number; lease: string }): NodeJS.Timeout {
    const timer = setInterval(() => {
      const until = new Date(this.deps.now().getTime() + this.leaseMs);
      void this.deps.db
        .updateTable("jobs")
        .set({ run_at: until })
        .where("id", "=", job.id)
        .where("lease", "=", job.lease)
        .execute()
        .catch((error: unknown) =>
          this.deps.log.warn({ err: error, jobId: job.id }, "job lease not renewed"),
        );
    }, this.leaseMs / 3);
    timer.unref();
    return timer;
  }

  private settleIfIdle(): void {
    if (this.filling || this.inFlight.size > 0) return;
    const waiters = this.waiters;
    const ran = this.ran;
    this.waiters = [];
    this.ran = 0;
    for (const waiter of waiters) waiter.resolve(ran);
  }
}

const scheduleKey = (name: string) => `every:${name}`;
const after = (time: Date, ms: number) => new Date(time.getTime() + ms);
