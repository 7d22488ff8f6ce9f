import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../tests/api/support/test-database";
import { eventually } from "../../../tests/api/support/wait";
import { type DatabaseHandle, inTransaction } from "../db/database";
import { listFailedJobs, retryFailedJob } from "./failed-jobs";
import { enqueueJob, type JobHandler, JobQueue, jobKind } from "./job-queue";

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const silent = { warn() {}, error() {} };
let kinds = 0;
/** A kind of its own per test: the tests share one database. */
const newKind = <P extends object>() => jobKind<P>(`test.kind-${++kinds}`);

/** A queue on a clock the test moves. */
function queueAt(start = new Date(), options: { leaseMs?: number; log?: typeof silent } = {}) {
  let now = start;
  const queue = new JobQueue({ db: database.db, now: () => now, log: options.log ?? silent, ...options });
  return {
    queue,
    at(time: Date) {
      now = time;
      return queue.runDue();
    },
    now: () => now,
  };
}

const jobsOf = (name: string) =>
  database.db.selectFrom("jobs").selectAll().where("name", "=", name).orderBy("id").execute();

const later = (from: Date, ms: number) => new Date(from.getTime() + ms);

describe("the job queue", () => {
  it("runs a job once, then forgets it", async () => {
    const kind = newKind<{ n: number }>();
    const seen: number[] = [];
    const { queue, now } = queueAt();
    queue.register({ kind, run: async ({ n }) => void seen.push(n) });
    await enqueueJob(database.db, kind, { n: 1 });
    await enqueueJob(database.db, kind, { n: 2 });
    expect(await queue.runDue()).toBe(2);
    expect(await queue.runDue()).toBe(0);
    expect(seen).toEqual([1, 2]);
    expect(await jobsOf(kind.name)).toEqual([]);
    expect(now()).toBeInstanceOf(Date);
  });

  it("has no job when the transaction that queued it rolls back", async () => {
    const kind = newKind<object>();
    await expect(
      inTransaction(database.db, async (trx) => {
        await enqueueJob(trx, kind, {});
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await jobsOf(kind.name)).toEqual([]);
  });

  it("wakes on the database's notification once the job's transaction commits, not before", async () => {
    const kind = newKind<object>();
    let runs = 0;
    const queue = new JobQueue({ db: database.db, now: () => new Date(), log: silent, pollMs: 3_600_000 });
    queue.register({ kind, run: async () => void runs++ });
    await queue.start({ notifications: database.notifications, housekeeping: false });
    try {
      let committed = false;
      await inTransaction(database.db, async (trx) => {
        await enqueueJob(trx, kind, {});
        // Inside the transaction the job is invisible to the queue, and no notification has gone out.
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(runs).toBe(0);
        committed = true;
      });
      expect(committed).toBe(true);
      await eventually(async () => expect(runs).toBe(1));
    } finally {
      await queue.stop();
    }
  });

  it("retries a failing job with its backoff, then keeps it as failed and tells its feature", async () => {
    const kind = newKind<{ id: string }>();
    const gaveUp: string[] = [];
    const t0 = new Date();
    const { queue, at } = queueAt(t0);
    queue.register({
      kind,
      maxAttempts: 3,
      retryDelayMs: (attempt) => attempt * 1000,
      run: async () => {
        throw new Error("the receiver is down");
      },
      gaveUp: async ({ id }) => void gaveUp.push(id),
    });
    await enqueueJob(database.db, kind, { id: "a" });
    expect(await at(t0)).toBe(1);
    expect((await jobsOf(kind.name))[0]).toMatchObject({ status: "pending", attempts: 1, lease: null });
    expect((await jobsOf(kind.name))[0]!.run_at.getTime()).toBe(t0.getTime() + 1000);
    expect(await at(later(t0, 999))).toBe(0);
    expect(await at(later(t0, 1000))).toBe(1);
    expect(await at(later(t0, 1000 + 1999))).toBe(0);
    expect(await at(later(t0, 3000))).toBe(1);
    expect(gaveUp).toEqual(["a"]);
    const [failed] = await jobsOf(kind.name);
    expect(failed).toMatchObject({ status: "failed", attempts: 3, last_error: "the receiver is down" });
    // Failed jobs are never claimed again on their own.
    expect(await at(later(t0, 3_600_000))).toBe(0);

    // The operator lists it and gives it new tries.
    expect((await listFailedJobs(database.db)).map((job) => job.id)).toContain(failed!.id);
    expect(await retryFailedJob(database.db, failed!.id, later(t0, 3_600_000))).toBe(true);
    expect((await jobsOf(kind.name))[0]).toMatchObject({ status: "pending", attempts: 0 });
    expect(await retryFailedJob(database.db, failed!.id, later(t0, 3_600_000))).toBe(false);
  });

  it("keeps one pending job per unique key, and a restart makes it due now with new tries", async () => {
    const kind = newKind<{ v: number }>();
    const t0 = new Date();
    await enqueueJob(database.db, kind, { v: 1 }, { uniqueKey: `${kind.name}:x`, runAt: later(t0, 60_000) });
    await enqueueJob(database.db, kind, { v: 2 }, { uniqueKey: `${kind.name}:x` });
    expect((await jobsOf(kind.name)).map((job) => job.payload)).toEqual([{ v: 1 }]);
    await database.db.updateTable("jobs").set({ attempts: 4 }).where("name", "=", kind.name).execute();
    await enqueueJob(database.db, kind, { v: 3 }, { uniqueKey: `${kind.name}:x`, runAt: t0, restart: true });
    const [job] = await jobsOf(kind.name);
    expect(job).toMatchObject({ payload: { v: 1 }, attempts: 0 });
    expect(job!.run_at.getTime()).toBe(t0.getTime());
  });

  it("runs a kind's jobs up to its concurrency, and one job of a group at a time", async () => {
    const kind = newKind<{ group: string; n: number }>();
    const running = new Set<string>();
    let most = 0;
    const overlaps: string[] = [];
    const { queue } = queueAt();
    queue.register({
      kind,
      concurrency: 2,
      run: async ({ group, n }) => {
        if (running.has(group)) overlaps.push(`${group}${n}`);
        running.add(group);
        most = Math.max(most, running.size);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running.delete(group);
      },
    });
    for (let n = 0; n < 4; n++) {
      await enqueueJob(database.db, kind, { group: "a", n }, { group: "seller:a" });
    }
    await enqueueJob(database.db, kind, { group: "b", n: 0 }, { group: "seller:b" });
    expect(await queue.runDue()).toBe(5);
    expect(overlaps).toEqual([]);
    // b's one job ran beside a's, not after all four of them.
    expect(most).toBe(2);
  });

  it("lets another instance run a job whose instance died, once its lease ends", async () => {
    const kind = newKind<object>();
    const t0 = new Date();
    const dying = queueAt(t0, { leaseMs: 60_000 });
    let dyingRuns = 0;
    dying.queue.register({
      kind,
      // The instance dies mid-job: the run never ends.
      run: () => {
        dyingRuns++;
        return new Promise(() => {});
      },
    });
    await enqueueJob(database.db, kind, {});
    void dying.at(t0);
    await eventually(async () => expect(dyingRuns).toBe(1));

    let otherRuns = 0;
    const other = queueAt(t0, { leaseMs: 60_000 });
    other.queue.register({ kind, run: async () => void otherRuns++ });
    expect(await other.at(later(t0, 59_000))).toBe(0);
    expect(await other.at(later(t0, 60_000))).toBe(1);
    expect(otherRuns).toBe(1);
    expect(await jobsOf(kind.name)).toEqual([]);
  });

  it("renews a running job's lease, so a long job is never run twice at once", async () => {
    const kind = newKind<object>();
    let finish = () => {};
    let runs = 0;
    const slow = new JobQueue({ db: database.db, now: () => new Date(), log: silent, leaseMs: 300 });
    slow.register({
      kind,
      run: () => {
        runs++;
        return new Promise<undefined>((resolve) => {
          finish = () => resolve(undefined);
        });
      },
    });
    await enqueueJob(database.db, kind, {});
    const first = slow.runDue();
    await eventually(async () => expect(runs).toBe(1));
    const other = new JobQueue({ db: database.db, now: () => new Date(), log: silent, leaseMs: 300 });
    other.register({ kind, run: async () => void runs++ });
    // Three leases long: renewed all along, never taken.
    for (let i = 0; i < 9; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await other.runDue()).toBe(0);
    }
    finish();
    expect(await first).toBe(1);
    expect(runs).toBe(1);
  });

  it('runs a job again at once while it answers "again" (a broadcast\'s batches)', async () => {
    const kind = newKind<object>();
    let left = 3;
    const { queue } = queueAt();
    queue.register({ kind, run: async () => (--left > 0 ? "again" : undefined) });
    await enqueueJob(database.db, kind, {});
    expect(await queue.runDue()).toBe(3);
    expect(await jobsOf(kind.name)).toEqual([]);
  });

  it("schedules housekeeping once however many instances start, and runs it every period whatever its outcome", async () => {
    const kind = newKind<object>();
    const t0 = new Date();
    let runs = 0;
    const handler: JobHandler<object> = {
      kind,
      everyMs: 60_000,
      run: async () => {
        runs++;
        if (runs === 1) throw new Error("the database is busy");
        return undefined;
      },
    };
    const first = queueAt(t0);
    const second = queueAt(t0);
    first.queue.register(handler);
    second.queue.register(handler);
    await first.queue.start({ housekeeping: true });
    await second.queue.start({ housekeeping: true });
    await first.queue.stop();
    await second.queue.stop();
    expect(await jobsOf(kind.name)).toHaveLength(1);

    const { queue, at } = queueAt(t0);
    queue.register(handler);
    expect(await at(later(t0, 59_000))).toBe(0);
    expect(await at(later(t0, 60_000))).toBe(1);
    expect(await at(later(t0, 60_000 + 59_000))).toBe(0);
    expect(await at(later(t0, 120_000))).toBe(1);
    expect(runs).toBe(2);
    const [job] = await jobsOf(kind.name);
    expect(job).toMatchObject({ status: "pending", attempts: 0, last_error: null });
  });

  it("logs rounds that fail while the database is unreachable and keeps polling", async () => {
    const unreachable = await openTestDatabase();
    await unreachable.close();
    const failures: unknown[] = [];
    const queue = new JobQueue({
      db: unreachable.db,
      now: () => new Date(),
      log: { warn() {}, error: (failure: unknown) => failures.push(failure) },
      pollMs: 10,
    });
    queue.register({ kind: newKind<object>(), run: async () => undefined });
    await queue.start({ housekeeping: false });
    // A failed round that escaped would be an unhandled rejection: the process would end (this run fails).
    await eventually(async () => expect(failures.length).toBeGreaterThanOrEqual(3));
    await queue.stop();
  });

  it("stops claiming on stop() and waits for the jobs running", async () => {
    const kind = newKind<object>();
    let finish = () => {};
    let finished = false;
    let runs = 0;
    const queue = new JobQueue({ db: database.db, now: () => new Date(), log: silent });
    queue.register({
      kind,
      run: () => {
        runs++;
        return new Promise<undefined>((resolve) => {
          finish = () => {
            finished = true;
            resolve(undefined);
          };
        });
      },
    });
    await enqueueJob(database.db, kind, {});
    await enqueueJob(database.db, kind, {});
    await queue.start({ housekeeping: false });
    await eventually(async () => expect(runs).toBe(1));
    const stopped = queue.stop();
    finish();
    await stopped;
    expect(finished).toBe(true);
    // The second job was left for the next start.
    expect(runs).toBe(1);
    expect(await jobsOf(kind.name)).toHaveLength(1);
  });
});
