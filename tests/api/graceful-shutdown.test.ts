import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../e2e/support/server";
import { createFreshDatabase } from "./support/test-database";
import { eventually } from "./support/wait";

// The real server process (`tsx src/server/main.ts`), as an orchestrator runs it and stops it with SIGTERM.
// On a fresh PostgreSQL database when TEST_DATABASE_URL is set, else embedded PGlite.
interface LogLine {
  msg?: string;
  req?: { method?: string };
}

let server: ChildProcess;
let baseUrl: string;
let dataDir: string;
let database: { url: string; drop(): Promise<void> } | undefined;
let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
const logs: LogLine[] = [];
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "flatfee-shutdown-"));
  database = process.env.TEST_DATABASE_URL
    ? await createFreshDatabase(process.env.TEST_DATABASE_URL)
    : undefined;
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      APP_URL: baseUrl,
      STRIPE_EMULATOR_PORT: String(await freePort()),
      LOG_LEVEL: "info",
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  exited = new Promise((resolve) => server.once("exit", (code, signal) => resolve({ code, signal })));
  createInterface({ input: server.stdout! }).on("line", (line) => {
    try {
      logs.push(JSON.parse(line) as LogLine);
    } catch {
      logs.push({ msg: line });
    }
  });
  await eventually(async () => expect(logged("Flatfee is running")).toBe(1), 50_000, 100);
});
afterAll(async () => {
  if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const logged = (text: string) => logs.filter((line) => line.msg?.includes(text)).length;

async function api(method: string, url: string, body: unknown, cookie?: string) {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { "content-type": "application/json", origin: baseUrl, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json(), cookie: response.headers.getSetCookie() };
}

/** A PUT of `size` bytes whose first half is sent now and the rest when `finish()` is called. */
function slowUpload(uploadUrl: string, headers: Record<string, string>, size: number) {
  const request = http.request(new URL(uploadUrl, baseUrl), {
    method: "PUT",
    headers: { ...headers, "content-length": size },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on("error", reject);
    request.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      response.on("error", reject);
    });
  });
  request.write(Buffer.alloc(size / 2, 1));
  return {
    answered,
    finish: () => request.end(Buffer.alloc(size / 2, 2)),
  };
}

describe("SIGTERM while requests are in flight", () => {
  it("finishes every request, ignores a second SIGTERM, closes everything and exits 0", async () => {
    const email = `shutdown-${Date.now()}@example.com`;
    const signedUp = await api("POST", "/api/auth/sign-up/email", {
      email,
      password: "correct-horse-42",
      name: "Shutdown",
    });
    expect(signedUp.status, JSON.stringify(signedUp.json)).toBe(200);
    const cookie = signedUp.cookie.map((setCookie) => setCookie.split(";")[0]).join("; ");

    const size = 64 * 1024;
    const uploads = [];
    for (let i = 0; i < 6; i++) {
      const intent = await api(
        "POST",
        "/api/uploads",
        { purpose: "profile-picture", fileName: `me-${i}.png`, sizeBytes: size, contentType: "image/png" },
        cookie,
      );
      expect(intent.status, JSON.stringify(intent.json)).toBe(201);
      uploads.push(slowUpload(intent.json.url, intent.json.headers, size));
    }
    // Every upload has reached the server and is being handled.
    const handledPuts = () =>
      logs.filter((line) => line.msg === "incoming request" && line.req?.method === "PUT");
    await eventually(async () => expect(handledPuts()).toHaveLength(uploads.length));

    server.kill("SIGTERM");
    // Shutting down: no new connections are accepted. Then a second SIGTERM, as impatient tools send.
    await eventually(async () => expect(fetch(`${baseUrl}/api/health`)).rejects.toThrow());
    server.kill("SIGTERM");

    for (const upload of uploads) upload.finish();
    const answers = await Promise.all(uploads.map((upload) => upload.answered));
    for (const answer of answers) {
      expect(answer.status, answer.body).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ sizeBytes: size });
    }

    expect(await exited).toEqual({ code: 0, signal: null });
    for (const part of [
      "HTTP server",
      "maintenance jobs",
      "outbox",
      "event bus",
      "Stripe emulator",
      "database",
    ]) {
      expect(logged(`shutdown: ${part} closed`), part).toBe(1);
    }
    expect(logged("shutdown: complete")).toBe(1);
  });
});
