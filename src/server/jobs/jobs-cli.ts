import pino from "pino";
import { loadConfig } from "../config";
import { openDatabase } from "../db/database";
import { type FailedJob, listFailedJobs, retryFailedJob } from "./failed-jobs";

/**
 * The operator's view of the background jobs (docs/background-jobs.md):
 *   npm run jobs                 the failed jobs, newest first
 *   npm run jobs -- retry <id>   gives a failed job new tries, now
 * With the embedded database, stop the server first: only one process may open it.
 */
const [command, argument] = process.argv.slice(2);
const config = loadConfig();
const database = await openDatabase(config.database, pino({ level: "warn" }));
try {
  if (command === "retry") {
    const id = Number(argument);
    if (!Number.isSafeInteger(id) || id <= 0) {
      console.error("Usage: npm run jobs -- retry <job id>");
      process.exitCode = 2;
    } else if (await retryFailedJob(database.db, id, new Date())) {
      console.info(`Job ${id} will run again now (a running server picks it up within seconds).`);
    } else {
      console.error(`No failed job ${id}.`);
      process.exitCode = 1;
    }
  } else if (command === undefined || command === "failed") {
    const failed = await listFailedJobs(database.db);
    console.info(failed.length === 0 ? "No failed jobs." : failed.map(describe).join("\n\n"));
  } else {
    console.error(`Unknown command "${command}". Use: npm run jobs [failed | retry <id>]`);
    process.exitCode = 2;
  }
} finally {
  await database.close();
}

function describe(job: FailedJob): string {
  return [
    `#${job.id} ${job.name} ${JSON.stringify(job.payload)}`,
    `  failed ${job.failedAt?.toISOString() ?? "?"} after ${job.attempts} tries: ${job.lastError ?? "no error recorded"}`,
  ].join("\n");
}
