import { execFile } from "node:child_process";
import { mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { type BuildTarget, build, reasonToBuild, targets } from "../../scripts/build-if-stale.mjs";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const OUT_DIR = ".vitest-tmp/server-bundle";
const LOCK = ".vitest-tmp/server-bundle.lock";
/** Longer than any build: a lock this old was left by a run that died while building. */
const STALE_LOCK_MS = 180_000;

const serverTarget = targets.find((target) => target.name === "server") as BuildTarget;

/**
 * The tests' own server bundle: what `npm start` runs (vite.server.config.ts's build of src/server/main.ts,
 * started by plain Node), built from the same sources by build-if-stale's rule, into a folder of its own
 * (never dist/, which `npm start` owns) inside the repository, so its external imports resolve to
 * node_modules.
 */
const bundle: BuildTarget = {
  ...serverTarget,
  name: "server bundle for the tests",
  output: `${OUT_DIR}/main.js`,
  stamp: `${OUT_DIR}.stamp`,
  build: () =>
    promisify(execFile)(
      process.execPath,
      [
        path.join(repoRoot, "node_modules/vite/bin/vite.js"),
        "build",
        "--config",
        "vite.server.config.ts",
        "--outDir",
        OUT_DIR,
        "--emptyOutDir",
        "--logLevel",
        "warn",
      ],
      { cwd: repoRoot },
    ),
};

let built: Promise<string> | undefined;

/**
 * The path of the server bundle's main.js, built first when it is missing or older than a source it is
 * made from. A test that starts the server as a process starts this one: loading it takes well under a
 * second where tsx compiling src/server/main.ts takes seconds at every start. Built once for a run: the
 * first worker to need it builds while the others wait; each worker looks once.
 */
export function serverBundle(): Promise<string> {
  built ??= buildIfStale().catch((error: unknown) => {
    built = undefined;
    throw error;
  });
  return built;
}

async function buildIfStale(): Promise<string> {
  const main = path.join(repoRoot, bundle.output);
  if (!reasonToBuild(repoRoot, bundle)) return main;
  await mkdir(path.join(repoRoot, ".vitest-tmp"), { recursive: true });
  await withLock(async () => {
    // Another worker may have built it while this one waited.
    if (reasonToBuild(repoRoot, bundle)) await build(bundle);
  });
  return main;
}

/** Runs `work` holding the bundle's lock (a folder: creating one is atomic), across processes. */
async function withLock(work: () => Promise<void>): Promise<void> {
  const lock = path.join(repoRoot, LOCK);
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const since = await stat(lock).then(
        (stats) => Date.now() - stats.mtimeMs,
        () => 0,
      );
      if (since > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}
