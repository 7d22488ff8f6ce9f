import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../../tests/api/support/test-database";
import { eventually } from "../../../../tests/api/support/wait";
import type { DatabaseHandle } from "../../db/database";
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

describe("outbox", () => {
  it("keeps an email through a mail outage and delivers it once the server is back", async () => {
    const transport = flakyTransport();
    const outbox = new Outbox(database.db, transport, "shop@example.com", silent, false);
    const id = await outbox.enqueue(email("a@example.com"));
    const t0 = new Date(Date.now() + 1000);

    expect(await outbox.deliverDue(t0)).toBe(0);
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
    expect(afterFailure.next_attempt_at.getTime()).toBe(t0.getTime() + retryDelayMs(1));

    // Not due yet: nothing is tried.
    transport.down = false;
    expect(await outbox.deliverDue(new Date(t0.getTime() + 1000))).toBe(0);
    // Due: delivered, exactly once.
    expect(await outbox.deliverDue(new Date(t0.getTime() + retryDelayMs(1)))).toBe(1);
    expect(await outbox.deliverDue(new Date(t0.getTime() + retryDelayMs(1) * 10))).toBe(0);
    expect(transport.delivered.map((e) => e.to)).toEqual(["a@example.com"]);
    const sent = await database.db
      .selectFrom("outbox_emails")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(sent).toMatchObject({ status: "sent", attempts: 2, last_error: null });
  });

  it("keeps its delivery rounds going while the database is unreachable, logging each failed one", async () => {
    const unreachable = await openTestDatabase();
    await unreachable.close();
    const failedRounds: unknown[] = [];
    const log = { warn() {}, error: (failure: unknown) => failedRounds.push(failure) };
    const outbox = new Outbox(unreachable.db, flakyTransport(), "shop@example.com", log, false);
    outbox.start(10);
    // A failed round that escaped would be an unhandled rejection: the process would end (this run fails).
    await eventually(async () => expect(failedRounds.length).toBeGreaterThanOrEqual(3));
    await outbox.stop();
  });

  it("keeps an email's headers and hands them to the transport", async () => {
    const transport = flakyTransport();
    transport.down = false;
    const outbox = new Outbox(database.db, transport, "shop@example.com", silent, false);
    const headers = { "List-Unsubscribe": "<https://app/unsubscribe/t>" };
    await outbox.enqueue({ ...email("headers@example.com"), headers });
    await outbox.deliverDue(new Date(Date.now() + 60 * 60_000 * 48));
    expect(transport.delivered.find((e) => e.to === "headers@example.com")?.headers).toEqual(headers);
  });

  it("backs off exponentially up to an hour", () => {
    expect([1, 2, 3, 10].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 3_600_000]);
  });

  it("never hands the same email to two concurrent delivery rounds", async () => {
    const transport = flakyTransport();
    transport.down = false;
    const first = new Outbox(database.db, transport, "shop@example.com", silent, false);
    const second = new Outbox(database.db, transport, "shop@example.com", silent, false);
    for (let i = 0; i < 5; i++) await first.enqueue(email(`c${i}@example.com`));
    const now = new Date(Date.now() + 60 * 60_000 * 24);
    const [a, b] = await Promise.all([first.deliverDue(now), second.deliverDue(now)]);
    expect(a + b).toBeGreaterThanOrEqual(5);
    const recipients = transport.delivered.map((e) => e.to).filter((to) => to.startsWith("c"));
    expect(new Set(recipients).size).toBe(recipients.length);
    expect(recipients).toHaveLength(5);
  });
});
