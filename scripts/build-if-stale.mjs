// `npm start` runs this before the compiled server: it builds the web app (dist/web), the server bundle
// (dist/server) and the embedded database's template (dist/pglite-template.tgz, make-database-template.ts)
// only when one is missing or a file it is made from changed since it was last built, so a start on a
// built checkout costs a directory walk, not a 5 s build. `--force` builds them all anyway (`npm run
// build`). Plain Node (no tsx), so the check itself starts in milliseconds.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/** Test files never end up in a build, so editing one rebuilds nothing. */
const isTestFile = (relativePath) => /\.test\.tsx?$/.test(relativePath);

const vite =
  (...args) =>
  () =>
    execFileSync(process.execPath, [path.join(repoRoot, "node_modules/vite/bin/vite.js"), ...args], {
      cwd: repoRoot,
      stdio: "inherit",
    });

const databaseTemplate = () => {
  mkdirSync(path.join(repoRoot, "dist"), { recursive: true });
  execFileSync(
    path.join(repoRoot, "node_modules/.bin/tsx"),
    ["scripts/make-database-template.ts", "dist/pglite-template.tgz"],
    { cwd: repoRoot, stdio: "inherit" },
  );
};

export const targets = [
  {
    name: "web app",
    output: "dist/web/index.html",
    stamp: "dist/.web-stamp",
    // Everything under src/ but the server-only folders, so a new shared folder counts without a change here.
    inputs: ["src", "vite.config.ts", "scripts/embed-script-build.mjs", "tsconfig.json", "package-lock.json"],
    ignore: (relativePath) =>
      isTestFile(relativePath) || /^src\/(server|stripe-emulator)(\/|$)/.test(relativePath),
    build: vite("build", "--logLevel", "warn"),
  },
  {
    name: "server",
    output: "dist/server/main.js",
    stamp: "dist/.server-stamp",
    // The server renders the web app's pages too, so all of src/ goes into it.
    inputs: ["src", "vite.server.config.ts", "tsconfig.json", "package-lock.json"],
    ignore: isTestFile,
    build: vite("build", "--config", "vite.server.config.ts", "--logLevel", "warn"),
  },
  {
    name: "database template",
    output: "dist/pglite-template.tgz",
    stamp: "dist/.pglite-template-stamp",
    // A new embedded database, migrated: PGlite's version and the migrations make it.
    inputs: ["package-lock.json", "src/server/db", "scripts/make-database-template.ts"],
    ignore: isTestFile,
    // With PostgreSQL (DATABASE_URL) there is no embedded database to start.
    wanted: () => !process.env.DATABASE_URL,
    build: databaseTemplate,
  },
];

/**
 * Newest modification time (ms) among `inputs` (files or folders, walked recursively) under `root`.
 * Folders count themselves: deleting or renaming a file changes only its folder's time.
 */
export function newestModification(root, inputs, ignore = () => false) {
  let newest = 0;
  const visit = (relativePath) => {
    if (ignore(relativePath)) return;
    const absolutePath = path.join(root, relativePath);
    const stats = statSync(absolutePath, { throwIfNoEntry: false });
    if (!stats) return;
    newest = Math.max(newest, stats.mtimeMs);
    if (!stats.isDirectory()) return;
    for (const entry of readdirSync(absolutePath)) visit(path.posix.join(relativePath, entry));
  };
  for (const input of inputs) visit(input);
  return newest;
}

/** Why `target` must be built under `root` ("missing", "sources changed"), or undefined when it is up to date. */
export function reasonToBuild(root, target) {
  const stamp = statSync(path.join(root, target.stamp), { throwIfNoEntry: false });
  if (!stamp || !existsSync(path.join(root, target.output))) return "missing";
  if (newestModification(root, target.inputs, target.ignore) > stamp.mtimeMs) return "sources changed";
  return undefined;
}

/**
 * Builds `target` and stamps it with the time the build started: a source saved while the build runs
 * is newer than the stamp, so the next start builds again. No stamp is left behind by a failed build.
 * (Also the tests' own server bundle's, tests/support/server-bundle.ts.)
 */
export async function build(target) {
  const stampPath = path.join(repoRoot, target.stamp);
  rmSync(stampPath, { force: true });
  const startedAt = new Date();
  await target.build();
  writeFileSync(stampPath, `${startedAt.toISOString()}\n`);
  utimesSync(stampPath, startedAt, startedAt);
}

async function main() {
  const force = process.argv.includes("--force");
  for (const target of targets) {
    if (target.wanted && !target.wanted()) continue;
    const reason = force ? "--force" : reasonToBuild(repoRoot, target);
    if (!reason) continue;
    const started = performance.now();
    console.log(`Building the ${target.name} (${reason})…`);
    await build(target);
    console.log(`Built the ${target.name} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
