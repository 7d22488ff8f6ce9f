import { beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../tests/api/support/test-database";
import { eventually } from "../../../tests/api/support/wait";
import type { Storage } from "../adapters/storage/storage";
import { pruneRateLimits } from "../http/rate-limit";
import { type MaintenanceDeps, type MaintenanceJob, startMaintenance } from "./maintenance";

// A database that is gone, as during an outage. The jobs below never touch storage.
let unreachable: MaintenanceDeps["db"];
const noStorage = {} as Storage;
const noCheckouts = async () => {};
beforeAll(async () => {
  const database = await openTestDatabase();
  await database.close();
  unreachable = database.db;
});

describe("maintenance", () => {
  it("logs a job failing while the database is unreachable, runs it again, keeps the others going", async () => {
    const failures: Array<{ job: string }> = [];
    let healthyRuns = 0;
    const jobs: MaintenanceJob[] = [
      { name: "prune rate limits", everyMs: 10, run: (now) => pruneRateLimits(unreachable, now) },
      { name: "count", everyMs: 10, run: async () => healthyRuns++ },
    ];
    const log = { error: (failure: { job: string }) => failures.push(failure) };
    const maintenance = startMaintenance(
      { db: unreachable, storage: noStorage, log, settleCheckouts: noCheckouts },
      jobs,
    );

    await eventually(async () => {
      const pruneFailures = failures.filter((failure) => failure.job === "prune rate limits");
      expect(pruneFailures.length).toBeGreaterThanOrEqual(3);
      expect(healthyRuns).toBeGreaterThanOrEqual(3);
    });
    await maintenance.stop();
  });

  it("never overlaps two runs of a job, and stop() waits for the run in progress", async () => {
    let started = 0;
    let finishRun = () => {};
    let finished = false;
    const slow: MaintenanceJob = {
      name: "slow",
      everyMs: 5,
      run: () => {
        started++;
        return new Promise<void>((resolve) => {
          finishRun = () => {
            finished = true;
            resolve();
          };
        });
      },
    };
    const maintenance = startMaintenance(
      { db: unreachable, storage: noStorage, log: { error() {} }, settleCheckouts: noCheckouts },
      [slow],
    );
    await eventually(async () => expect(started).toBe(1));
    // Many ticks pass while the run is in progress; none starts another.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toBe(1);

    const stopped = maintenance.stop();
    finishRun();
    await stopped;
    expect(finished).toBe(true);
  });
});
