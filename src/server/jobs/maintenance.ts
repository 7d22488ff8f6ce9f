import type { Logger } from "pino";
import type { Storage } from "../adapters/storage/storage";
import type { Database } from "../db/database";
import { pruneProductViewVisits } from "../features/analytics/record-product-view";
import { deleteUnusedStampedCopies } from "../features/pdf-stamps/stamp-queue";
import { pruneApiRequestLogs } from "../features/seller-api/request-log";
import { pruneWebhookDeliveries } from "../features/seller-webhooks/prune-deliveries";
import { purgeExpiredUploads } from "../features/uploads/purge-expired-uploads";
import { pruneRateLimits } from "../http/rate-limit";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export interface MaintenanceDeps {
  db: Database;
  storage: Storage;
  log: Pick<Logger, "error">;
  /** The checkouts janitor and payment reconciliation (App.settleCheckouts). */
  settleCheckouts(now: Date): Promise<void>;
  /** Queues sellers' emails to their buyers into the outbox in batches (App.sendBroadcasts). */
  sendBroadcasts?(now: Date): Promise<void>;
}

/** One housekeeping job: a name for the logs, how often it runs, and its work. */
export interface MaintenanceJob {
  name: string;
  everyMs: number;
  run(now: Date): Promise<unknown>;
}

/**
 * Housekeeping: drop old rate-limit windows; remove upload intents that were never completed together
 * with their partial files (abandoned uploads leave nothing behind); settle checkouts with Stripe
 * (fulfil payments whose webhook never came, give back the stock of checkouts that ended unpaid).
 */
export function maintenanceJobs({
  db,
  storage,
  settleCheckouts,
  sendBroadcasts,
}: MaintenanceDeps): MaintenanceJob[] {
  return [
    {
      name: "prune rate limits",
      everyMs: 10 * MINUTE_MS,
      run: (now) => pruneRateLimits(db, new Date(now.getTime() - DAY_MS)),
    },
    {
      name: "purge expired uploads",
      everyMs: 10 * MINUTE_MS,
      run: (now) => purgeExpiredUploads(db, storage, now),
    },
    {
      // Buyers' stamped PDFs whose file, product or order is gone, or whose download window ended.
      name: "delete unused stamped PDFs",
      everyMs: 10 * MINUTE_MS,
      run: (now) => deleteUnusedStampedCopies(db, storage, now),
    },
    {
      name: "prune product view visits",
      everyMs: 10 * MINUTE_MS,
      run: (now) => pruneProductViewVisits(db, now),
    },
    {
      name: "prune API request logs",
      everyMs: 60 * MINUTE_MS,
      run: (now) => pruneApiRequestLogs(db, now),
    },
    {
      name: "prune webhook deliveries",
      everyMs: 60 * MINUTE_MS,
      run: (now) => pruneWebhookDeliveries(db, now),
    },
    {
      // Often: a payment whose webhook never came is fulfilled within minutes.
      name: "settle checkouts",
      everyMs: 2 * MINUTE_MS,
      run: settleCheckouts,
    },
    // A send queues its first batches at once; this finishes large ones and any a crash interrupted.
    ...(sendBroadcasts
      ? [{ name: "send emails to buyers", everyMs: MINUTE_MS / 2, run: sendBroadcasts }]
      : []),
  ];
}

/**
 * Runs each job on its own timer. A run never overlaps the previous one of its job, and a failure
 * (the database is down, say) is logged and retried at the next tick: no job can stop the loop.
 */
export function startMaintenance(
  deps: MaintenanceDeps,
  jobs: MaintenanceJob[] = maintenanceJobs(deps),
): { stop(): Promise<void> } {
  const runs = new Map<MaintenanceJob, Promise<void>>();
  const tick = (job: MaintenanceJob) => {
    if (runs.has(job)) return;
    const run = runLogged(job, deps.log).finally(() => runs.delete(job));
    runs.set(job, run);
  };
  const timers = jobs.map((job) => setInterval(() => tick(job), job.everyMs).unref());
  return {
    /** Stops the timers and waits for the runs in progress, so nothing uses the database after it closes. */
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await Promise.all(runs.values());
    },
  };
}

async function runLogged(job: MaintenanceJob, log: MaintenanceDeps["log"]): Promise<void> {
  try {
    await job.run(new Date());
  } catch (error) {
    log.error({ err: error, job: job.name }, "maintenance job failed");
  }
}
