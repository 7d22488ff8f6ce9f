import type { Database } from "../db/database";
import { pruneRateLimits } from "../http/rate-limit";

const EVERY_MS = 10 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/** Housekeeping that keeps tables small: old rate-limit windows. Runs every 10 minutes. */
export function startMaintenance(db: Database): { stop(): void } {
  const run = () => void pruneRateLimits(db, new Date(Date.now() - DAY_MS)).catch(() => {});
  const timer = setInterval(run, EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
