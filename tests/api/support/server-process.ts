import { type ChildProcess, spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { expect } from "vitest";
import { freePort } from "../../e2e/support/server";
import { testDatabaseTemplate } from "../../support/database-template";
import { serverBundle } from "../../support/server-bundle";
import { createFreshDatabase } from "./test-database";
import { eventually } from "./wait";

export interface LogLine {
  msg?: string;
  req?: { method?: string };
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Its DATA_DIR (embedded database, local storage). */
  dataDir: string;
  logs: LogLine[];
  /** Everything the process wrote to stderr (a stack trace would land here). */
  stderr(): string;
  /** How many log lines contain `text`. */
  logged(text: string): number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills what is left and removes its data. */
  stop(): Promise<void>;
}

/**
 * The real server process as an orchestrator or `npm start` runs it: the server bundle started by plain
 * Node (tests/support/server-bundle.ts, built once for the run: no TypeScript compiler at each start), on
 * a fresh PostgreSQL database when TEST_DATABASE_URL is set, else embedded PGlite. It leads a process
 * group of its own, so a test can signal the group as a terminal's Ctrl-C does. It runs in a working
 * directory of its own whose dist/ holds the run's migrated database template, where main.ts looks for
 * the built one (a new embedded database takes far longer to create).
 */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const main = await serverBundle();
  const workDir = await mkdtemp(path.join(tmpdir(), "flatfee-process-"));
  const dataDir = path.join(workDir, "data");
  const template = testDatabaseTemplate();
  if (template) {
    await mkdir(path.join(workDir, "dist"));
    await copyFile(template, path.join(workDir, "dist/pglite-template.tgz"));
  }
  const database = process.env.TEST_DATABASE_URL
    ? await createFreshDatabase(process.env.TEST_DATABASE_URL)
    : undefined;
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [main], {
    cwd: workDir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      APP_URL: baseUrl,
      STRIPE_EMULATOR_PORT: String(await freePort()),
      LOG_LEVEL: "info",
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const logs: LogLine[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    try {
      logs.push(JSON.parse(line) as LogLine);
    } catch {
      logs.push({ msg: line });
    }
  });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const logged = (text: string) => logs.filter((line) => line.msg?.includes(text)).length;
  const running: ServerProcess = {
    child,
    baseUrl,
    dataDir,
    logs,
    stderr: () => stderr,
    logged,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
      await database?.drop();
      await rm(workDir, { recursive: true, force: true });
    },
  };
  try {
    await eventually(async () => expect(logged("Flatfee is running"), stderr).toBe(1), 50_000, 100);
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}
