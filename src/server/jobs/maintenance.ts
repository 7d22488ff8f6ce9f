import type { Storage } from "../adapters/storage/storage";
import type { Database } from "../db/database";
import { pruneProductViewVisits } from "../features/analytics/record-product-view";
import { pruneLicenseVerifications } from "../features/licenses/prune-verifications";
import { deleteUnusedStampedCopies } from "../features/pdf-stamps/stamp-queue";
import { pruneApiRequestLogs } from "../features/seller-api/request-log";
import { pruneWebhookDeliveries } from "../features/seller-webhooks/prune-deliveries";
import { purgeExpiredUploads } from "../features/uploads/purge-expired-uploads";
import { pruneRateLimits } from "../http/rate-limit";
import { pruneFailedJobs } from "./failed-jobs";
import { type JobHandler, jobKind } from "./job-queue";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export interface MaintenanceDeps {
  db: Database;
  storage: Storage;
  /** The checkouts janitor and payment reconciliation (App.settleCheckouts). */
  settleCheckouts(now: Date): Promise<void>;
}

/** A housekeeping job: recurring, never failed (a run that fails is logged and the next one retries). */
function every(name: string, everyMs: number, run: (now: Date) => Promise<unknown>): JobHandler<object> {
  return {
    kind: jobKind<object>(`maintenance.${name}`),
    everyMs,
    run: async (_payload, { now }) => {
      await run(now);
      return undefined;
    },
  };
}

/**
 * Housekeeping, as recurring jobs of the queue: drop old rate-limit windows; remove upload intents that
 * were never completed together with their partial files (abandoned uploads leave nothing behind); settle
 * checkouts with Stripe (fulfil payments whose webhook never came, give back the stock of checkouts that
 * ended unpaid); prune what is kept for a while only.
 */
export function maintenanceJobs({ db, storage, settleCheckouts }: MaintenanceDeps): JobHandler<object>[] {
  return [
    every("prune-rate-limits", 10 * MINUTE_MS, (now) =>
      pruneRateLimits(db, new Date(now.getTime() - DAY_MS)),
    ),
    every("purge-expired-uploads", 10 * MINUTE_MS, (now) => purgeExpiredUploads(db, storage, now)),
    // Buyers' stamped PDFs whose file, product or order is gone, or whose download window ended.
    every("delete-unused-stamped-pdfs", 10 * MINUTE_MS, (now) => deleteUnusedStampedCopies(db, storage, now)),
    every("prune-product-view-visits", 10 * MINUTE_MS, (now) => pruneProductViewVisits(db, now)),
    every("prune-api-request-logs", 60 * MINUTE_MS, (now) => pruneApiRequestLogs(db, now)),
    every("prune-webhook-deliveries", 60 * MINUTE_MS, (now) => pruneWebhookDeliveries(db, now)),
    every("prune-failed-jobs", 60 * MINUTE_MS, (now) => pruneFailedJobs(db, now)),
    every("prune-license-verifications", 60 * MINUTE_MS, (now) => pruneLicenseVerifications(db, now)),
    // Often: a payment whose webhook never came is fulfilled within minutes.
    every("settle-checkouts", 2 * MINUTE_MS, settleCheckouts),
  ];
}
