import { readdir } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { serverBundle } from "../support/server-bundle";
import { type ServerProcess, startServerProcess } from "./support/server-process";
import { eventually } from "./support/wait";

// The real server process, stopped as an orchestrator does (SIGTERM) and as a terminal's Ctrl-C does
// (SIGINT to the whole process group), while requests are in flight. Each test starts its own server.
vi.setConfig({ testTimeout: 120_000 });
// The server bundle they run, built first if a source changed since its last build.
beforeAll(() => serverBundle(), 120_000);
let server: ServerProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function api(baseUrl: string, method: string, url: string, body: unknown, cookie?: string) {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { "content-type": "application/json", origin: baseUrl, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json(), cookie: response.headers.getSetCookie() };
}

/** A PUT of `size` bytes whose first half is sent now and the rest when `finish()` is called. */
function slowUpload(baseUrl: string, uploadUrl: string, headers: Record<string, string>, size: number) {
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
    // Settles whether the upload is answered or its connection is cut.
    settled: answered.then(
      (answer) => answer,
      (error: NodeJS.ErrnoException) => ({ status: 0, body: error.code ?? error.message }),
    ),
    finish: () => request.end(Buffer.alloc(size / 2, 2)),
  };
}

/** A signed-up seller's cookie and `count` slow profile-picture uploads, each being handled. */
async function uploadsInFlight(running: ServerProcess, count: number, size: number) {
  const { baseUrl } = running;
  const signedUp = await api(baseUrl, "POST", "/api/auth/sign-up/email", {
    email: `shutdown-${Date.now()}@example.com`,
    password: "correct-horse-42",
    name: "Shutdown",
  });
  expect(signedUp.status, JSON.stringify(signedUp.json)).toBe(200);
  const cookie = signedUp.cookie.map((setCookie) => setCookie.split(";")[0]).join("; ");
  const uploads = [];
  for (let i = 0; i < count; i++) {
    const intent = await api(
      baseUrl,
      "POST",
      "/api/uploads",
      { purpose: "profile-picture", fileName: `me-${i}.png`, sizeBytes: size, contentType: "image/png" },
      cookie,
    );
    expect(intent.status, JSON.stringify(intent.json)).toBe(201);
    uploads.push(slowUpload(baseUrl, intent.json.url, intent.json.headers, size));
  }
  // Each upload being written: the local storage streams it into .incoming until it is complete.
  const incoming = path.join(running.dataDir, "storage", ".incoming");
  await eventually(async () => expect(await readdir(incoming).catch(() => [])).toHaveLength(count));
  return uploads;
}

/** One request of the burst: when its last byte was handed to the network, and what came back. */
interface Outcome {
  what: string;
  sentAt?: number;
  status?: number;
  connection?: string;
  body?: string;
  answeredAt?: number;
  error?: string;
  cookies?: string[];
}

function send(
  baseUrl: string,
  agent: http.Agent,
  method: "GET" | "POST",
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { what: `${method} ${path}` };
    const payload = method === "POST" ? JSON.stringify(body) : "";
    const request = http.request(new URL(path, baseUrl), {
      method,
      agent,
      headers: {
        ...(method === "POST"
          ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }
          : {}),
        origin: baseUrl,
        ...headers,
      },
    });
    request.on("finish", () => {
      outcome.sentAt = performance.now();
    });
    request.on("error", (error: NodeJS.ErrnoException) => resolve({ ...outcome, error: error.code }));
    request.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.on("end", () =>
        resolve({
          ...outcome,
          answeredAt: performance.now(),
          status: response.statusCode ?? 0,
          body: text,
          ...(response.headers.connection ? { connection: response.headers.connection } : {}),
          ...(response.headers["set-cookie"] ? { cookies: response.headers["set-cookie"] } : {}),
        }),
      );
      response.on("error", (error: NodeJS.ErrnoException) => resolve({ ...outcome, error: error.code }));
    });
    request.end(payload);
  });
}

/**
 * A customer signing up, looking at their status and starting the plan's checkout, again and again, on
 * one kept-alive connection (as a browser or a proxy does), each request sent the moment the previous
 * one is answered, until the server stops answering.
 */
async function customer(baseUrl: string, index: number, outcomes: Outcome[]) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const ok = (outcome: Outcome) => {
    outcomes.push(outcome);
    return outcome.status === 200;
  };
  try {
    for (let round = 0; round < 100; round++) {
      // Behind a proxy (TRUST_PROXY), each sign-up from its own address: the per-address limit stays out of it.
      const from = { "x-forwarded-for": `10.1.${index}.${round}` };
      const email = `burst-${index}-${round}@example.com`;
      const signUp = await send(
        baseUrl,
        agent,
        "POST",
        "/api/auth/sign-up/email",
        { email, password: "correct-horse-42", name: "Burst" },
        from,
      );
      if (!ok(signUp)) return;
      const session = { ...from, cookie: signUp.cookies!.map((cookie) => cookie.split(";")[0]).join("; ") };
      // Short requests, most of the traffic: the connection sits idle between them only for a moment.
      for (let look = 0; look < 5; look++) {
        if (!ok(await send(baseUrl, agent, "GET", "/api/seller/status", undefined, session))) return;
      }
      if (!ok(await send(baseUrl, agent, "POST", "/api/billing/checkout", {}, session))) return;
    }
  } finally {
    agent.destroy();
  }
}

/**
 * Runs a burst of customers, sends `signal` once they are all going, and checks what every request got:
 * one sent before the signal a real answer (never a 5xx), one after a refused connection or a 503 that
 * closes its connection. Also an idle kept-alive connection, which must not hold the shutdown open.
 */
async function burstThen(running: ServerProcess, signal: () => void) {
  const { baseUrl } = running;
  const idleAgent = new http.Agent({ keepAlive: true });
  const idle = await send(baseUrl, idleAgent, "GET", "/api/seller/status", undefined, {});
  expect(idle.status, idle.body).toBe(401);

  const outcomes: Outcome[] = [];
  const customers = Array.from({ length: 10 }, (_, index) => customer(baseUrl, index, outcomes));
  const failedBeforeSignal = () => outcomes.find((outcome) => outcome.status !== 200);
  await eventually(async () => {
    if (!failedBeforeSignal()) expect(outcomes.length).toBeGreaterThan(30);
  }, 60_000);
  expect(failedBeforeSignal()).toBeUndefined();
  const signalledAt = performance.now();
  signal();
  await Promise.all(customers);
  idleAgent.destroy();

  const before = outcomes.filter((outcome) => outcome.sentAt !== undefined && outcome.sentAt < signalledAt);
  const after = outcomes.filter((outcome) => !before.includes(outcome));
  const describeAll = JSON.stringify(
    outcomes.map(({ what, sentAt, status, connection, error }) => ({
      what,
      sent: sentAt === undefined ? "never" : sentAt < signalledAt ? "before" : "after",
      status,
      connection,
      error,
    })),
  );
  for (const outcome of before) {
    expect(outcome.status, describeAll).toBeGreaterThanOrEqual(200);
    expect(outcome.status, describeAll).toBeLessThan(500);
  }
  for (const outcome of after) {
    // Answered as usual (the server had not seen the signal yet), answered while draining, or refused:
    // never cut halfway.
    if (outcome.error !== undefined) expect(outcome.error, describeAll).toBe("ECONNREFUSED");
    else if (outcome.status === 503) expect(outcome.connection, describeAll).toBe("close");
    else expect(outcome.status, describeAll).toBeLessThan(500);
  }
  // Requests were in flight when the signal came, and the drain answered them.
  expect(before.filter((outcome) => outcome.answeredAt! > signalledAt).length).toBeGreaterThan(0);
  // Every customer ends on a refused connection: the server no longer listens.
  expect(after.filter((outcome) => outcome.error === "ECONNREFUSED")).toHaveLength(10);
  return before;
}

describe("SIGTERM while requests are in flight", () => {
  it("finishes every request, ignores a second SIGTERM, closes everything and exits 0", async () => {
    server = await startServerProcess();
    const running = server;
    const size = 64 * 1024;
    const uploads = await uploadsInFlight(running, 6, size);

    running.child.kill("SIGTERM");
    // Shutting down: no new connections are accepted. Then a second SIGTERM, as impatient tools send.
    await eventually(async () => expect(fetch(`${running.baseUrl}/api/health`)).rejects.toThrow());
    running.child.kill("SIGTERM");

    for (const upload of uploads) upload.finish();
    const answers = await Promise.all(uploads.map((upload) => upload.answered));
    for (const answer of answers) {
      expect(answer.status, answer.body).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ sizeBytes: size });
    }

    expect(await running.exited).toEqual({ code: 0, signal: null });
    for (const part of ["HTTP server", "background jobs", "event bus", "Stripe emulator", "database"]) {
      expect(running.logged(`shutdown: ${part} closed`), part).toBe(1);
    }
    expect(running.logged("shutdown: complete")).toBe(1);
  });

  it("answers every request of a burst sent before it, over kept-alive connections, and exits 0", async () => {
    server = await startServerProcess({ TRUST_PROXY: "true" });
    const running = server;
    const before = await burstThen(running, () => running.child.kill("SIGTERM"));
    expect(before.length).toBeGreaterThan(30);
    expect(await running.exited).toEqual({ code: 0, signal: null });
    expect(running.logged("shutdown: complete")).toBe(1);
    expect(running.stderr()).not.toMatch(/^\s+at /m);
  });
});

describe("Ctrl-C in the terminal running the server", () => {
  it("drains as cleanly as SIGTERM, though the whole group gets it, twice at once (npm forwarding it)", async () => {
    server = await startServerProcess({ TRUST_PROXY: "true" });
    const running = server;
    const group = -running.child.pid!;
    await burstThen(running, () => {
      process.kill(group, "SIGINT");
      process.kill(group, "SIGINT");
    });
    expect(await running.exited).toEqual({ code: 0, signal: null });
    expect(running.logged("SIGINT received: shutting down")).toBe(1);
    expect(running.logged("shutdown: complete")).toBe(1);
    expect(running.stderr()).not.toMatch(/^\s+at /m);
  });

  it("exits at once on a second Ctrl-C, without waiting for what is in flight", async () => {
    server = await startServerProcess();
    const running = server;
    const uploads = await uploadsInFlight(running, 2, 64 * 1024);
    const group = -running.child.pid!;
    process.kill(group, "SIGINT");
    await eventually(async () => expect(running.logged("SIGINT received: shutting down")).toBe(1));
    // The uploads hold the drain open; a person presses Ctrl-C again.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(running.child.exitCode).toBeNull();
    process.kill(group, "SIGINT");
    expect(await running.exited).toEqual({ code: 130, signal: null });
    expect(running.logged("second Ctrl-C: exiting without finishing")).toBe(1);
    expect(running.stderr()).not.toMatch(/^\s+at /m);
    for (const upload of uploads) expect((await upload.settled).status).toBe(0);
  });
});
