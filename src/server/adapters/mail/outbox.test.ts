import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../../tests/api/support/test-database";
import { type DatabaseHandle, inTransaction } from "../../db/database";
import { JobQueue } from "../../jobs/job-queue";
import { Outbox, retryDelayMs } from "./outbox";
import type { MailTransport, OutgoingEmail } from "./transport";

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

/** A transport that fails while `down` is true and records what it delivered. */
interface FlakyTransport extends MailTransport {
  down: boolean;
  delivered: OutgoingEmail[];
}

function flakyTransport(): FlakyTransport {
  const transport: FlakyTransport = {
    kind: "smtp",
    down: true,
    delivered: [],
    async send(email) {
      if (transport.down) throw new Error("SMTP connection refused");
      transport.delivered.push(email);
    },
    async isHealthy() {
      return !transport.down;
    },
  };
  return transport;
}

const silent = { warn() {}, error() {} };
const email = (to: string): OutgoingEmail => ({ to, subject: "Your receipt", html: "<p>hi</p>", text: "hi" });

/** An outbox and a queue that runs only its emails, on a clock the test moves. */
function outboxWithQueue(transport: MailTransport) {
  let now = new Date(Date.now() + 1000);
  const outbox = new Outbox(database.db, transport, "shop@example.com");
  const queue = new JobQueue({ db: database.db, now: () => now, log: silent });
  queue.register(outbox.sendJob());
  return {
    outbox,
    queue,
    at(time: Date) {
      now = time;
      return queue.runDue();
    },
    now: () => now,
  };
}

const mailJobOf = (emailId: number) =>
  database.db.selectFrom("jobs").selectAll().where("unique_key", "=", `mail:${emailId}`).executeTakeFirst();

describe("outbox", () => {
  it("keeps an email through a mail outage and delivers it once the server is back", async () => {
    const transport = flakyTransport();
    const { outbox, at, now } = outboxWithQueue(transport);
    const id = await outbox.enqueue(email("a@example.com"));
    const t0 = now();

    expect(await at(t0)).toBe(1);
    const afterFailure = await database.db
      .selectFrom("outbox_emails")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(afterFailure).toMatchObject({
      status: "pending",
      attempts: 1,
      last_error: "SMTP connection refused",
    });
    expect((await mailJobOf(id))?.run_at.getTime()).toBe(t0.getTime() + retryDelayMs(1));

    // Not due yet: nothing is tried.
    transport.down = false;
    expect(await at(new Date(t0.getTime() + 1000))).toBe(0);
    // Due: delivered, exactly once, and its job is done.
    expect(await at(new Date(t0.getTime() + retryDelayMs(1)))).toBe(1);
    expect(await at(new Date(t0.getTime() + retryDelayMs(1) * 10))).toBe(0);
    expect(transport.delivered.map((e) => e.to)).toEqual(["a@example.com"]);
    const sent = await database.db
      .selectFrom("outbox_emails")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(sent).toMatchObject({ status: "sent", attempts: 2, last_error: null });
    expect(await mailJobOf(id)).toBeUndefined();
  });

  it("marks an email failed after its last try, and keeps the failed job for the operator", async () => {
    const transport = flakyTransport();
    const { outbox, at, now } = outboxWithQueue(transport);
    const id = await outbox.enqueue(email("never@example.com"));
    let time = now().getTime();
    for (let attempt = 1; attempt <= 8; attempt++) {
      expect(await at(new Date(time))).toBe(1);
      time += retryDelayMs(attempt);
    }
    expect(await at(new Date(time + 24 * 3_600_000))).toBe(0);
    const row = await database.db
      .selectFrom("outbox_emails")
      .select(["status", "attempts"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "failed", attempts: 8 });
    expect(await mailJobOf(id)).toMatchObject({
      status: "failed",
      attempts: 8,
      last_error: "SMTP connection refused",
    });
  });

  it("queues nothing when the transaction that enqueued the email rolls back", async () => {
    const { outbox } = outboxWithQueue(flakyTransport());
    let emailId = 0;
    await expect(
      inTransaction(database.db, async (trx) => {
        emailId = await outbox.enqueue(email("rolled-back@example.com"), trx);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(emailId).toBeGreaterThan(0);
    expect(await mailJobOf(emailId)).toBeUndefined();
  });

  it("keeps an email's headers and hands them to the transport", async () => {
    const transport = flakyTransport();
    transport.down = false;
    const { outbox, at } = outboxWithQueue(transport);
    const headers = { "List-Unsubscribe": "<https://app/unsubscribe/t>" };
    await outbox.enqueue({ ...email("headers@example.com"), headers });
    await at(new Date(Date.now() + 60 * 60_000 * 48));
    expect(transport.delivered.find((e) => e.to === "headers@example.com")?.headers).toEqual(headers);
  });

  it("backs off exponentially up to an hour", () => {
    expect([1, 2, 3, 10].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 3_600_000]);
  });

  it("never hands the same email to two instances' queues at once", async () => {
    const transport = flakyTransport();
    transport.down = false;
    const first = outboxWithQueue(transport);
    const second = outboxWithQueue(transport);
    for (let i = 0; i < 5; i++) await first.outbox.enqueue(email(`c${i}@example.com`));
    const now = new Date(Date.now() + 60 * 60_000 * 24);
    const [a, b] = await Promise.all([first.at(now), second.at(now)]);
    expect(a + b).toBeGreaterThanOrEqual(5);
    const recipients = transport.delivered.map((e) => e.to).filter((to) => to.startsWith("c"));
    expect(new Set(recipients).size).toBe(recipients.length);
    expect(recipients).toHaveLength(5);
  });
});
