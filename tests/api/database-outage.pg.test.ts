import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Outbox } from "../../src/server/adapters/mail/outbox";
import { mailboxTransport } from "../../src/server/adapters/mail/transport";
import { pruneRateLimits } from "../../src/server/http/rate-limit";
import { JobQueue, jobKind } from "../../src/server/jobs/job-queue";
import { openEventStream } from "./support/event-stream";
import { createTestApp, signUp, type TestApp, uniqueEmail } from "./support/test-app";
import { eventually } from "./support/wait";

// Runs only on PostgreSQL (npm run test:pg): what a PostgreSQL restart or failover does to a running app.
let t: TestApp;
let admin: pg.Client;
let databaseName: string;
const unhandled: unknown[] = [];
const recordUnhandled = (error: unknown) => unhandled.push(error);

beforeAll(async () => {
  process.on("uncaughtException", recordUnhandled);
  process.on("unhandledRejection", recordUnhandled);
  t = await createTestApp({
    listen: true,
    extraRoutes: (server) => {
      server.get("/api/test-only/slow-query", async () => {
        await sql`select pg_sleep(30)`.execute(t.db);
        return { done: true };
      });
      server.get("/api/test-only/slow-transaction", async () => {
        await t.db.transaction().execute((trx) => sql`select pg_sleep(30)`.execute(trx));
        return { done: true };
      });
    },
  });
  admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.db);
  databaseName = rows[0]!.name;
});
afterAll(async () => {
  await admin.query(`alter database "${databaseName}" allow_connections true`);
  await admin.end();
  await t.close();
  process.off("uncaughtException", recordUnhandled);
  process.off("unhandledRejection", recordUnhandled);
});

/** What a restart or failover does to every session of the app: FATAL 57P01 on each connection. */
async function terminateSessions(): Promise<void> {
  await admin.query(
    "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
    [databaseName],
  );
}

async function sessionsRunning(queryPattern: string): Promise<number> {
  const { rows } = await admin.query<{ count: number }>(
    "select count(*)::int as count from pg_stat_activity where datname = $1 and query like $2",
    [databaseName, queryPattern],
  );
  return rows[0]!.count;
}

function expectUnavailable(response: {
  statusCode: number;
  headers: Record<string, unknown>;
  json(): unknown;
}) {
  expect(response.statusCode).toBe(503);
  expect(response.headers["retry-after"]).toBeDefined();
  expect(response.json()).toEqual({
    code: "unavailable",
    message: "The service is briefly unavailable. Please try again in a moment.",
    requestId: expect.any(String),
  });
}

async function fetchJson(path: string) {
  const response = await fetch(`${t.url}${path}`);
  return {
    statusCode: response.status,
    headers: Object.fromEntries(response.headers),
    body: await response.text(),
    json() {
      return JSON.parse(this.body) as unknown;
    },
  };
}

describe("sessions terminated while queries run (a restart or failover)", () => {
  for (const route of ["slow-query", "slow-transaction"]) {
    it(`answers the request of a cut ${route} with a 503 and a request id, and serves the next one`, async () => {
      const cut = fetchJson(`/api/test-only/${route}`);
      await eventually(async () => expect(await sessionsRunning("%pg_sleep%")).toBe(1));
      await terminateSessions();
      expectUnavailable(await cut);
      // The other pooled connections were ended too; each is dropped as its server process goes away.
      await eventually(async () => expect(t.database.pool!.idleCount).toBe(0));

      const signUpAfter = await t.request({
        method: "POST",
        url: "/api/auth/sign-up/email",
        body: { email: uniqueEmail(), password: "correct-horse-42", name: "After" },
      });
      expect(signUpAfter.statusCode, signUpAfter.body).toBe(200);
      expect(unhandled).toEqual([]);
    });
  }
});

describe("a database that refuses connections for a while", () => {
  it("answers 503 meanwhile, keeps its loops going, and serves and streams again once it is back", async () => {
    const seller = await signUp(t);
    const stream = await openEventStream(t.url!, seller.cookie);
    // A queue polling often (as every instance's does, every 2 s), with the outbox's emails and a
    // housekeeping job of its own.
    const queueFailures: unknown[] = [];
    let housekeepingRuns = 0;
    const queue = new JobQueue({
      db: t.db,
      now: () => new Date(),
      log: { warn() {}, error: (failure: unknown) => queueFailures.push(failure) },
      pollMs: 20,
    });
    const outbox = new Outbox(t.db, mailboxTransport(), "test@flatfee.local");
    queue.register(outbox.sendJob(), {
      kind: jobKind<object>("test.prune-rate-limits"),
      everyMs: 20,
      run: async (_payload, { now }) => {
        await pruneRateLimits(t.db, now);
        housekeepingRuns++;
        return undefined;
      },
    });
    await queue.start();

    await admin.query(`alter database "${databaseName}" allow_connections false`);
    await terminateSessions();

    expectUnavailable(await t.request({ method: "GET", url: "/api/seller/status", cookie: seller.cookie }));
    // Better Auth's own routes too, not only the ones our code guards first (listing sessions always
    // reads the database; reading the session alone may be answered from its signed cookie cache).
    expectUnavailable(
      await t.request({ method: "GET", url: "/api/auth/list-sessions", cookie: seller.cookie }),
    );
    expectUnavailable(
      await t.request({
        method: "POST",
        url: "/api/auth/sign-in/email",
        body: { email: seller.email, password: seller.password },
      }),
    );
    // A live update cannot be sent now; publishing it does not fail the change it announces.
    await expect(t.events.publish(seller.userId, { type: "sales.changed" })).resolves.toBeUndefined();
    // Several rounds of the queue fail, are logged, and it goes on polling.
    await eventually(async () => expect(queueFailures.length).toBeGreaterThanOrEqual(3));

    await admin.query(`alter database "${databaseName}" allow_connections true`);
    const firstAfter = await t.request({ method: "GET", url: "/api/seller/status", cookie: seller.cookie });
    expect(firstAfter.statusCode, firstAfter.body).toBe(200);

    // The queue delivers emails again, and its housekeeping runs again.
    const emailId = await outbox.enqueue({
      to: seller.email,
      subject: "Back",
      html: "<p>back</p>",
      text: "back",
    });
    await eventually(async () => {
      const row = await t.db
        .selectFrom("outbox_emails")
        .select("status")
        .where("id", "=", emailId)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe("sent");
    });
    const runsBefore = housekeepingRuns;
    await eventually(async () => expect(housekeepingRuns).toBeGreaterThan(runsBefore));
    await queue.stop();

    // Live updates and job wake-ups come back: once the bus and the app's queue listen again, an event
    // reaches the open stream.
    await eventually(async () => expect(await sessionsRunning("listen flatfee_events")).toBe(1));
    await eventually(async () => expect(await sessionsRunning("listen flatfee_jobs")).toBe(1));
    await t.events.publish(seller.userId, { type: "sales.changed" });
    await eventually(async () => expect(stream.received).toContainEqual({ type: "sales.changed" }));
    stream.close();
    expect(unhandled).toEqual([]);
  });
});
