import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type RunningServer, startServer } from "../../../src/server/boot";
import { loadConfig } from "../../../src/server/config";
import { createFreshDatabase } from "../../api/support/test-database";
import { testDatabaseTemplate } from "../../support/database-template";

// E2E_WEB_DIST lets several people build and run the journeys side by side on one checkout.
export const E2E_WEB_DIST = path.resolve(process.env.E2E_WEB_DIST ?? ".vitest-tmp/web");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface E2EServer extends RunningServer {
  baseUrl: string;
  dataDir: string;
  /** Stops the server and keeps its DATA_DIR, to run a command on it (e.g. `npm run operator:grant`) and start again. */
  stop(): Promise<void>;
}

/**
 * The real server as `npm start` runs it (embedded defaults), in a throwaway DATA_DIR; on a fresh
 * PostgreSQL database instead of PGlite when TEST_DATABASE_URL is set (CI runs the journeys both ways).
 */
export async function startE2EServer(
  env: Record<string, string> = {},
  /** Start again on a stopped server's DATA_DIR (and port, so its address and cookies stay the same). */
  again?: { dataDir: string; port: number },
): Promise<E2EServer> {
  const dataDir = again?.dataDir ?? (await mkdtemp(path.join(tmpdir(), "flatfee-e2e-")));
  const database =
    process.env.TEST_DATABASE_URL && !again
      ? await createFreshDatabase(process.env.TEST_DATABASE_URL)
      : undefined;
  if (again && process.env.TEST_DATABASE_URL) {
    throw new Error("Starting again on the same DATA_DIR is for the embedded database only");
  }
  const port = again?.port ?? (await freePort());
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    STRIPE_EMULATOR_PORT: String(await freePort()),
    LOG_LEVEL: "warn",
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const template = testDatabaseTemplate();
  const server = await startServer(config, {
    logger: false,
    webDistDir: E2E_WEB_DIST,
    ...(template ? { pgliteTemplate: template } : {}),
  });
  return {
    ...server,
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir,
    stop: () => server.close(),
    async close() {
      await server.close();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
