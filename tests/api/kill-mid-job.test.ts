import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DatabaseHandle, migrateToLatest, openDatabase } from "../../src/server/db/database";
import { samplePdf } from "../../src/server/features/pdf-stamps/test-pdfs";
import { testDatabaseTemplate } from "../support/database-template";
import { serverBundle } from "../support/server-bundle";
import { buyProduct, readySeller, upload } from "./support/sellers";
import { type ServerProcess, startServerProcess } from "./support/server-process";
import { createTestApp, uniqueEmail } from "./support/test-app";
import { createFreshDatabase } from "./support/test-database";
import { eventually } from "./support/wait";

// The real server process is killed (SIGKILL) while it sends an email, delivers a webhook and stamps a
// PDF, each held mid-way by the test; then it starts again (on PostgreSQL, as two instances) and every
// job ends as its guarantee says: each email sent exactly once, the webhook delivered at least once with
// one webhook-id, the stamp made. Embedded PGlite when TEST_DATABASE_URL is unset, PostgreSQL otherwise.
const postgresUrl = process.env.TEST_DATABASE_URL;
const RESTARTED_INSTANCES = postgresUrl ? 2 : 1;

let dataDir: string;
let fresh: { url: string; drop(): Promise<void> } | undefined;
const silentLog = { warn() {} };

async function openSharedDatabase(): Promise<DatabaseHandle> {
  const database = fresh
    ? await openDatabase({ kind: "postgres", url: fresh.url }, silentLog)
    : await openDatabase(
        { kind: "pglite", directory: path.join(dataDir, "db") },
        silentLog,
        testDatabaseTemplate(),
      );
  await migrateToLatest(database.db);
  return database;
}

/** An SMTP server that holds every message at DATA while `holding`, and records what it accepted. */
async function startSmtpServer() {
  const delivered: string[] = [];
  let held = 0;
  const state = { holding: true };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => {
        raw += chunk.toString("utf8");
      });
      stream.on("end", () => {
        if (state.holding) {
          held++;
          return; // Never answered: the sender waits, mid-send, until it dies.
        }
        delivered.push(raw);
        callback();
      });
    },
  });
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    delivered,
    held: () => held,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A seller's webhook receiver that holds requests while `holding` (never answers), then answers 204. */
async function startHoldingReceiver() {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const heldResponses: ServerResponse[] = [];
  const state = { holding: true };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      if (state.holding) heldResponses.push(response);
      else response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    held: () => heldResponses.length,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let receiver: Awaited<ReturnType<typeof startHoldingReceiver>>;
// The server bundle the instances run, built first if a source changed since its last build.
beforeAll(() => serverBundle(), 120_000);
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "flatfee-kill-"));
  await mkdir(path.join(dataDir, "tmp"));
  fresh = postgresUrl ? await createFreshDatabase(postgresUrl) : undefined;
  smtp = await startSmtpServer();
  receiver = await startHoldingReceiver();
});
afterAll(async () => {
  await smtp.close();
  await receiver.close();
  await fresh?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const serverEnv = () => ({
  DATA_DIR: dataDir,
  SMTP_URL: smtp.url,
  WEBHOOK_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
  // A dead instance's jobs are taken up 2 s after its last lease renewal (a minute by default).
  JOB_LEASE_SECONDS: "2",
  // Where a stamp's working copy goes: the test sees the stamp begin there.
  TMPDIR: path.join(dataDir, "tmp"),
  ...(fresh ? { DATABASE_URL: fresh.url } : {}),
});

it("finishes every job a killed instance was in the middle of, once it (or another) starts again", async () => {
  // The work: a sale of a product whose PDF is stamped, to a seller with a webhook endpoint, and its
  // emails; made by the app, with no job run yet.
  const seeding = await createTestApp({
    listen: true,
    database: await openSharedDatabase(),
    dataDir,
    jobsInBackground: false,
    webhookPolicy: { requireHttps: false, allowPrivateHosts: ["127.0.0.1"] },
  });
  const seller = await readySeller(seeding);
  const endpoint = await seeding.request({
    method: "POST",
    url: "/api/webhook-endpoints",
    cookie: seller.cookie,
    body: { url: `${receiver.url}/hooks`, events: ["sale.completed"] },
  });
  expect(endpoint.statusCode, endpoint.body).toBe(201);
  const pdf = await samplePdf({ pages: 3 });
  const uploadId = await upload(seeding, seller.cookie, "product-file", "book.pdf", pdf);
  const created = await seeding.request({
    method: "POST",
    url: "/api/products",
    cookie: seller.cookie,
    body: {
      title: "Stamped",
      price: "5.00",
      inventoryType: "unlimited",
      files: [{ uploadId }],
      stampPdfs: true,
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const buyer = uniqueEmail("buyer");
  const orderId = await buyProduct(seeding, created.json().id, buyer);
  const emails = await seeding.db.selectFrom("outbox_emails").select(["to_address", "subject"]).execute();
  expect(emails.map((email) => email.to_address)).toContain(buyer);
  const original = await seeding.db
    .selectFrom("uploads")
    .select(["bucket", "storage_key"])
    .where("id", "=", uploadId)
    .executeTakeFirstOrThrow();
  await seeding.close();

  // The PDF's bytes become a pipe nobody writes to: a stamp that starts reading it waits there.
  const originalPath = path.join(
    dataDir,
    "storage",
    original.bucket ?? "product-files",
    original.storage_key!,
  );
  await rm(originalPath);
  execFileSync("mkfifo", [originalPath]);

  const first = await startServerProcess(serverEnv());
  let restarted: ServerProcess[] = [];
  try {
    // Mid-job, all three: an email held at DATA, a webhook held unanswered, a stamp begun.
    await eventually(
      async () => {
        expect(smtp.held()).toBeGreaterThanOrEqual(1);
        expect(receiver.held()).toBe(1);
        expect(
          (await readdir(path.join(dataDir, "tmp"))).some((name) => name.startsWith("flatfee-stamp-")),
        ).toBe(true);
      },
      30_000,
      50,
    );
    first.child.kill("SIGKILL");
    expect(await first.exited).toMatchObject({ signal: "SIGKILL" });
    expect(smtp.delivered).toHaveLength(0);
    const webhookId = receiver.received[0]!.headers["webhook-id"];

    // It comes back: the mail server and the receiver answer, the PDF's bytes are there.
    smtp.state.holding = false;
    receiver.state.holding = false;
    await rm(originalPath);
    await writeFile(originalPath, pdf);
    restarted = await Promise.all(
      Array.from({ length: RESTARTED_INSTANCES }, () => startServerProcess(serverEnv())),
    );

    const stampedCopy = async () =>
      (await readdir(path.dirname(originalPath))).filter((name) => name.includes(`-stamped-${orderId}`));
    await eventually(
      async () => {
        expect(smtp.delivered).toHaveLength(emails.length);
        expect(receiver.received.length).toBeGreaterThanOrEqual(2);
        expect(await stampedCopy()).toHaveLength(1);
      },
      45_000,
      100,
    );
    // Two more leases and polls: nothing is sent twice.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    for (const email of emails) {
      const copies = smtp.delivered.filter(
        (raw) => raw.includes(`To: ${email.to_address}`) && raw.includes(email.subject.slice(0, 20)),
      );
      expect(copies, `${email.to_address}: ${email.subject}`).toHaveLength(1);
    }
    expect(smtp.delivered).toHaveLength(emails.length);
    // At least once, always as the same message: a receiver drops the repeat by its webhook-id.
    expect(new Set(receiver.received.map((webhook) => webhook.headers["webhook-id"]))).toEqual(
      new Set([webhookId]),
    );
  } finally {
    await Promise.all(
      restarted.map(async (instance) => {
        instance.child.kill("SIGTERM");
        await instance.exited;
      }),
    );
    await Promise.all([first, ...restarted].map((instance) => instance.stop()));
  }

  // What the database says once they stopped: everything done, nothing failed, only housekeeping left.
  const database = await openSharedDatabase();
  try {
    const mail = await database.db.selectFrom("outbox_emails").select("status").execute();
    expect(mail.map((row) => row.status)).toEqual(Array(emails.length).fill("sent"));
    const [delivery] = await database.db.selectFrom("webhook_deliveries").selectAll().execute();
    expect(delivery).toMatchObject({ id: receiver.received[0]!.headers["webhook-id"], status: "succeeded" });
    const [stamp] = await database.db
      .selectFrom("pdf_stamps")
      .selectAll()
      .where("order_id", "=", orderId)
      .execute();
    expect(stamp).toMatchObject({ status: "stamped" });
    const left = await database.db.selectFrom("jobs").select(["name", "status", "unique_key"]).execute();
    expect(left.filter((job) => !job.unique_key?.startsWith("every:"))).toEqual([]);
  } finally {
    await database.close();
  }
}, 180_000);
