import { sql } from "kysely";
import type { Readiness } from "../../../contracts/readiness";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import type { JobQueue } from "../../jobs/job-queue";
import { probe } from "./health";

export interface ReadinessDeps {
  db: Database;
  storage: Storage;
  jobs: Pick<JobQueue, "isRunning">;
}

/**
 * Whether this instance can serve: the database answers a query, the storage is reachable (the
 * adapter's own cheap check: the folder writable, the bucket there) and the job queue runs here. Checked
 * afresh on every call (each check is cheap), in parallel, each within the health checks' timeout.
 */
export async function checkReadiness(deps: ReadinessDeps): Promise<Readiness> {
  const [database, storage, jobs] = await Promise.all([
    probe(async () => {
      await sql`select 1`.execute(deps.db);
      return true;
    }),
    probe(() => deps.storage.isHealthy()),
    probe(async () => deps.jobs.isRunning()),
  ]);
  const checks = { database, storage, jobs };
  const failing = (Object.keys(checks) as Array<keyof typeof checks>).filter((name) => checks[name] !== "ok");
  return { status: failing.length === 0 ? "ready" : "not_ready", checks, failing };
}
