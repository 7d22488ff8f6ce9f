import { sql } from "kysely";
import type { Logger } from "pino";
import type { Database } from "../../db/database";
import type { MailTransport, OutgoingEmail } from "./transport";

const MAX_ATTEMPTS = 8;
const BATCH_SIZE = 20;
const LEASE_MS = 5 * 60_000;

/** Retry after 30 s, 1 min, 2 min, ... capped at one hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** (attempts - 1), 3_600_000);
}

/**
 * Every email is first written to the outbox table, then delivered by the transport. A transport
 * outage only delays an email: failures are retried with backoff, never lost.
 */
export class Outbox {
  private timer: NodeJS.Timeout | undefined;
  private delivering: Promise<number> | undefined;

  constructor(
    private readonly db: Database,
    readonly transport: MailTransport,
    private readonly from: string,
    private readonly log: Pick<Logger, "warn" | "error">,
    /** Deliver right after enqueue (production); tests turn it off to drive time themselves. */
    private readonly deliverOnEnqueue = true,
  ) {}

  /** Stores the email (inside the caller's transaction if `db` is one) and asks for a delivery round. */
  async enqueue(email: OutgoingEmail, db: Database = this.db): Promise<number> {
    const row = await db
      .insertInto("outbox_emails")
      .values({
        to_address: email.to,
        subject: email.subject,
        html: email.html,
        text: email.text,
        headers: email.headers ? JSON.stringify(email.headers) : null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (db === this.db && this.deliverOnEnqueue) this.kick();
    return row.id;
  }

  /** Sends what is due. Rounds never overlap, so an email is never sent twice by one instance. */
  deliverDue(now: Date = new Date()): Promise<number> {
    if (!this.delivering) {
      this.delivering = this.deliverRound(now).finally(() => {
        this.delivering = undefined;
      });
    }
    return this.delivering;
  }

  /** A delivery round every `intervalMs`; a failed one (the database is down) is logged, the next retries. */
  start(intervalMs = 5_000): void {
    this.timer = setInterval(() => this.kick(), intervalMs);
    this.timer.unref();
  }

  /** Stops the rounds and waits for the current one, whatever its outcome (it has been logged). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.delivering?.catch(() => {});
  }

  private kick(): void {
    void this.deliverDue().catch((error) => this.log.error({ err: error }, "outbox delivery round failed"));
  }

  private async deliverRound(now: Date): Promise<number> {
    let sent = 0;
    for (let i = 0; i < BATCH_SIZE; i++) {
      const email = await this.claimNext(now);
      if (!email) break;
      try {
        await this.transport.send({
          from: this.from,
          to: email.to_address,
          subject: email.subject,
          html: email.html,
          text: email.text,
          ...(email.headers ? { headers: email.headers } : {}),
        });
        await this.db
          .updateTable("outbox_emails")
          .set({ status: "sent", sent_at: now, attempts: sql`attempts + 1`, last_error: null })
          .where("id", "=", email.id)
          .execute();
        sent++;
      } catch (error) {
        const attempts = email.attempts + 1;
        this.log.warn({ err: error, emailId: email.id, attempts }, "email delivery failed");
        await this.db
          .updateTable("outbox_emails")
          .set({
            attempts,
            last_error: error instanceof Error ? error.message : String(error),
            status: attempts >= MAX_ATTEMPTS ? "failed" : "pending",
            next_attempt_at: new Date(now.getTime() + retryDelayMs(attempts)),
          })
          .where("id", "=", email.id)
          .execute();
      }
    }
    return sent;
  }

  /**
   * Leases the oldest due email for a few minutes (SKIP LOCKED, so instances never pick the same
   * row). Sending happens outside any transaction; a crash mid-send means a retry when the lease ends.
   */
  private async claimNext(now: Date) {
    return this.db
      .updateTable("outbox_emails")
      .set({ next_attempt_at: new Date(now.getTime() + LEASE_MS) })
      .where(
        "id",
        "=",
        this.db
          .selectFrom("outbox_emails")
          .select("id")
          .where("status", "=", "pending")
          .where("next_attempt_at", "<=", now)
          .orderBy("id")
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      .returningAll()
      .executeTakeFirst();
  }
}
