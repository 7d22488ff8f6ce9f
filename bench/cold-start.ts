/**
 * Cold start (run by hand: `npx tsx bench/cold-start.ts`; `--runs 5` for more runs, `--command "…"` to
 * time another start command, e.g. the old `npx tsx src/server/main.ts`).
 *
 * Seconds from spawning `npm start` (installed and built: the bench brings the build up to date first)
 * to the first 200 on `/`, on a fresh DATA_DIR (database created, migrations run, secrets generated)
 * and again on the same, now existing one. The baseline of the same run is `node -e` starting a
 * trivial HTTP server, timed the same way; each result is reported as a ratio to it.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
};
const runs = Number(option("--runs") ?? 3);
const command = option("--command") ?? "npm start";
const TRIVIAL_SERVER = `node -e "require('node:http').createServer((q, s) => s.end('ok')).listen(process.env.PORT)"`;

/** Starts `shellCommand` in its own process group and answers the seconds until GET / answers 200. */
async function secondsToFirstPage(shellCommand: string, dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(shellCommand, {
    shell: true,
    detached: true,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      STRIPE_EMULATOR_PORT: String(await freePort()),
      LOG_LEVEL: "warn",
    },
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${shellCommand} exited with ${child.exitCode}`);
      const status = await fetch(`http://127.0.0.1:${port}/`).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) return (performance.now() - started) / 1000;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await stopGroup(child);
  }
}

/**
 * SIGTERM to the whole group (sh → npm → node), then waits until every process of it has ended: the
 * shell ends at once, the server only once it has closed its database.
 */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) return;
  const groupAlive = () => {
    try {
      process.kill(-(child.pid as number), 0);
      return true;
    } catch {
      return false;
    }
  };
  if (groupAlive()) process.kill(-child.pid, "SIGTERM");
  while (groupAlive()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A port nothing listens on (the bench loads none of the app's code, so it cannot skew what it times). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

console.log("bringing the build up to date (not timed)…");
execFileSync("node", ["scripts/build-if-stale.mjs"], { stdio: "inherit" });

const results = { baseline: [] as number[], fresh: [] as number[], existing: [] as number[] };
for (let run = 1; run <= runs; run++) {
  const dataDir = await mkdtemp(path.join(tmpdir(), "flatfee-cold-start-"));
  try {
    results.baseline.push(await secondsToFirstPage(TRIVIAL_SERVER, dataDir));
    results.fresh.push(await secondsToFirstPage(command, dataDir));
    results.existing.push(await secondsToFirstPage(command, dataDir));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  console.log(
    `run ${run}: baseline ${results.baseline.at(-1)?.toFixed(2)} s, fresh DATA_DIR ${results.fresh.at(-1)?.toFixed(2)} s, existing ${results.existing.at(-1)?.toFixed(2)} s`,
  );
}

const baseline = median(results.baseline);
console.log(`\n${command}: seconds to the first 200 on / (median of ${runs} runs)`);
console.table({
  "trivial node server (baseline)": { seconds: baseline.toFixed(2), ratio: "1.0" },
  "fresh DATA_DIR": {
    seconds: median(results.fresh).toFixed(2),
    ratio: (median(results.fresh) / baseline).toFixed(1),
  },
  "existing DATA_DIR": {
    seconds: median(results.existing).toFixed(2),
    ratio: (median(results.existing) / baseline).toFixed(1),
  },
});
