import type { Storage } from "../adapters/storage/storage";
import type { Database } from "../db/database";
import { releaseStaleReservations } from "../features/checkout/stock";
import { purgeExpiredUploads } from "../features/uploads/purge-expired-uploads";
import { pruneRateLimits } from "../http/rate-limit";

const EVERY_MS = 10 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/**
 * Housekeeping every 10 minutes: drop old rate-limit windows, and remove upload intents that were
 * never completed together with their partial files (abandoned uploads leave nothing behind), and
 * give back stock held by checkouts whose expiry event never arrived.
 */
export function startMaintenance(db: Database, storage: Storage): { stop(): void } {
  const run = async () => {
    const now = new Date();
    await pruneRateLimits(db, new Date(now.getTime() - DAY_MS)).catch(() => {});
    await purgeExpiredUploads(db, storage, now).catch(() => {});
    await releaseStaleReservations(db, now).catch(() => {});
  };
  const timer = setInterval(() => void run(), EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
