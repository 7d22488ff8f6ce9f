import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "../../src/server/db/database";
import { testDatabaseTemplate } from "../support/database-template";
import { createTestApp, signUp, type TestApp } from "./support/test-app";
import { openEmbeddedTestDatabase } from "./support/test-database";

// The test app's auth secret (support/test-app.ts): `npm run backup` reads it as the server does.
const AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
const CLI = path.resolve("src/server/features/operations/backup-cli.ts");
const TSX = path.resolve("node_modules/.bin/tsx");

/** `npm run backup|restore` as the operator runs it: a process, configured by its environment only. */
function cli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    const { PATH, HOME } = process.env;
    execFile(
      TSX,
      [CLI, ...args],
      { env: { PATH, HOME, LOG_LEVEL: "silent", ...env }, timeout: 90_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let work: string;
let t: TestApp;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "flatfee-backup-cli-"));
  t = await createTestApp({
    listen: true,
    jobsInBackground: false,
    dataDir: path.join(work, "live"),
    // Backups are the embedded database's (PostgreSQL has pg_dump): PGlite even in the PostgreSQL pass.
    database: await openEmbeddedTestDatabase(),
  });
  await signUp(t);
  await t.storage.write("product-covers", "cover/one.png", Readable.from([Buffer.from("png")]));
});
afterAll(async () => {
  await t?.close();
  await rm(work, { recursive: true, force: true });
});

describe("npm run backup and npm run restore", () => {
  it("backs up through the running server, then restores into an empty folder only", async () => {
    const port = new URL(t.url!).port;
    const archive = path.join(work, "from-server.tar.gz");
    const backup = await cli(["backup", archive], {
      PORT: port,
      AUTH_SECRET,
      DATA_DIR: path.join(work, "live"),
    });
    expect(backup.output).toContain("Backup written to");
    expect(backup.code).toBe(0);
    expect(backup.output).toMatch(/1 files \(3 bytes\)/);
    expect(existsSync(`${archive}.part`)).toBe(false);

    const target = path.join(work, "restored");
    const restore = await cli(["restore", archive], { DATA_DIR: target });
    expect(restore.output).toMatch(/Restored the backup of .* 1 users/);
    expect(restore.code).toBe(0);
    expect(existsSync(path.join(target, "db", "PG_VERSION"))).toBe(true);
    expect(existsSync(path.join(target, "storage", "product-covers", "cover", "one.png"))).toBe(true);

    const again = await cli(["restore", archive], { DATA_DIR: target });
    expect(again.code).toBe(1);
    expect(again.output).toContain("is not empty");
  }, 120_000);

  it("backs up a stopped embedded database by opening it itself", async () => {
    const dataDir = path.join(work, "stopped");
    const directory = path.join(dataDir, "db");
    await mkdir(directory, { recursive: true });
    const database = await openDatabase({ kind: "pglite", directory }, console, testDatabaseTemplate());
    await migrateToLatest(database.db);
    await database.close();
    await writeFile(
      path.join(dataDir, "local-secrets.json"),
      JSON.stringify({
        authSecret: AUTH_SECRET,
        webhookSecret: "whsec_a",
        connectWebhookSecret: "whsec_b",
      }),
    );
    const archive = path.join(work, "stopped.tar.gz");
    const backup = await cli(["backup", archive], { PORT: String(await closedPort()), DATA_DIR: dataDir });
    expect(backup.output).toContain("Backup written to");
    expect(backup.code).toBe(0);
    // It closed the database again.
    expect(existsSync(path.join(directory, "postmaster.pid"))).toBe(false);
  }, 120_000);

  it("says how to back up PostgreSQL and S3 when DATABASE_URL is set", async () => {
    const empty = path.join(work, "pg-mode");
    const backup = await cli(["backup"], {
      DATABASE_URL: "postgres://user@db.example.com/flatfee",
      DATA_DIR: empty,
      AUTH_SECRET,
    });
    expect(backup.code).toBe(1);
    expect(backup.output).toContain("pg_dump");
    expect(backup.output).toContain("aws s3 sync");
    const restore = await cli(["restore", "x.tar.gz"], {
      DATABASE_URL: "postgres://user@db.example.com/flatfee",
      DATA_DIR: empty,
    });
    expect(restore.code).toBe(1);
    expect(restore.output).toContain("pg_restore");
    expect(existsSync(empty) ? await readdir(empty) : []).toEqual([]);
  }, 60_000);
});
