import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../tests/e2e/support/server";
import { serverBundle } from "../../tests/support/server-bundle";

// What `npm start` runs: the server bundled by vite.server.config.ts, started by plain Node (no tsx).
// The bundle is the tests' own (tests/support/server-bundle.ts: built inside the repository, in .vitest-tmp,
// so its external imports resolve to node_modules, and rebuilt when a source changed since its last build);
// it runs from a working directory of its own, where `dist/` holds only what a test puts there.
let bundleDir: string;
let workDir: string;
/** Every start's DATA_DIR, removed at the end even when a test failed before removing its own. */
const dataDirs: string[] = [];
beforeAll(async () => {
  bundleDir = path.dirname(await serverBundle());
  workDir = await mkdtemp(path.join(tmpdir(), "flatfee-compiled-"));
}, 120_000);
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
  await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

interface Started {
  child: ChildProcess;
  output: () => string;
  /** The new DATA_DIR this start was given (a test removes it once done with it). */
  dataDir: string;
  /** Where the modules it loaded are recorded, when started with `nodeOptions` that record them. */
  modulesFile: string;
}

/**
 * `node main.js` in embedded mode on free ports and a new DATA_DIR, resolved once /api/health answers
 * 200. A port found free can be taken by another test's process before the server listens on it: then
 * once more, on other ports and in another new DATA_DIR (the failed start's is removed).
 */
async function startBundle(nodeOptions: string[] = []): Promise<Started> {
  try {
    return await startBundleOnce(nodeOptions);
  } catch (error) {
    if (!String(error).includes("EADDRINUSE")) throw error;
    return startBundleOnce(nodeOptions);
  }
}

async function startBundleOnce(nodeOptions: string[]): Promise<Started> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "flatfee-compiled-data-"));
  dataDirs.push(dataDir);
  const modulesFile = path.join(workDir, `loaded-modules-${path.basename(dataDir)}.txt`);
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeOptions, path.join(bundleDir, "main.js")], {
    cwd: workDir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      DATA_DIR: dataDir,
      STRIPE_EMULATOR_PORT: String(await freePort()),
      LOG_LEVEL: "info",
      ...(nodeOptions.length > 0 ? { LOADED_MODULES_FILE: modulesFile } : {}),
    },
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  for (;;) {
    if (child.exitCode !== null) {
      await rm(dataDir, { recursive: true, force: true });
      await rm(modulesFile, { force: true });
      throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
    }
    const status = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return { child, output: () => output, dataDir, modulesFile };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stop({ child }: Started): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  return exited;
}

describe("the compiled server", () => {
  let firstDataDir: string;

  it("starts on a new DATA_DIR, logs each start step with its duration, and exits 0 on SIGTERM", async () => {
    const server = await startBundle();
    firstDataDir = server.dataDir;

    expect(await stop(server)).toBe(0);
    const log = server.output();
    for (const step of ["opening the database", "running migrations", "starting the Stripe emulator"]) {
      expect(log).toMatch(new RegExp(`start: ${step}[^"]* took \\d+ ms`));
    }
    expect(log).toMatch(/Flatfee is running at .* ready [\d.]+ s after the process started/);
    expect(log).toContain("shutdown: complete");
  }, 60_000);

  it("starts a new DATA_DIR's database from dist/pglite-template.tgz", async () => {
    // A template made from the first server's database, with a table only it has.
    const source = new PGlite(path.join(firstDataDir, "db"));
    await source.exec("create table made_from_template (id int)");
    const template = await source.dumpDataDir("gzip");
    await source.close();
    await mkdir(path.join(workDir, "dist"), { recursive: true });
    await writeFile(
      path.join(workDir, "dist/pglite-template.tgz"),
      Buffer.from(await template.arrayBuffer()),
    );

    const server = await startBundle();
    expect(await stop(server)).toBe(0);

    const started = new PGlite(path.join(server.dataDir, "db"));
    const found = await started.query<{ table: string | null }>(
      "select to_regclass('made_from_template')::text as table",
    );
    await started.close();
    expect(found.rows[0]?.table).toBe("made_from_template");
    await rm(server.dataDir, { recursive: true, force: true });
    await rm(firstDataDir, { recursive: true, force: true });
  }, 60_000);

  it("loads no library of a rarely used feature at start: each is loaded when first used", async () => {
    // Every module the process loads, ES modules (a resolve hook) and CommonJS ones (require.cache at exit).
    await writeFile(
      path.join(workDir, "module-hooks.mjs"),
      `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.LOADED_MODULES_FILE, resolved.url + "\\n");
  return resolved;
}`,
    );
    await writeFile(
      path.join(workDir, "record-modules.mjs"),
      `import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
register("./module-hooks.mjs", import.meta.url);
const require = createRequire(import.meta.url);
process.on("exit", () => appendFileSync(process.env.LOADED_MODULES_FILE, Object.keys(require.cache).join("\\n")));`,
    );
    const server = await startBundle(["--import", path.join(workDir, "record-modules.mjs")]);
    expect(await stop(server)).toBe(0);
    await rm(server.dataDir, { recursive: true, force: true });

    const loaded = new Set(
      [...(await readFile(server.modulesFile, "utf8")).matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)].map(
        (match) => match[1],
      ),
    );
    expect(loaded).toContain("fastify"); // the record works
    const rare = [
      "sharp", // cover and profile pictures
      "yauzl", // ZIP inspection, store archives
      "yazl", // ZIPs made: invoices, store exports
      "csv-parse", // store imports
      "file-type", // uploads
      "@zxcvbn-ts/language-common", // the common-password list, on sign-up and password changes
      "pg", // PostgreSQL, when DATABASE_URL is set
      "nodemailer", // SMTP, when configured
      "@aws-sdk/client-s3", // S3, when configured
      "ajv", // Fastify's default schema compiler: our schemas are zod's
      "radix-ui", // the server-rendered pages' components: bundled, only the few they use
      "lucide-react",
      "tar-stream", // backups (features/operations)
    ];
    expect(rare.filter((name) => loaded.has(name))).toEqual([]);
  }, 60_000);
});
