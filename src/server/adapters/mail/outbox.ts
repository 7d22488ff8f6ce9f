import { sql } from "kysely";
import type { Database } from "../../db/database";
import { enqueueJob, type JobHandler, jobKind } from "../../jobs/job-queue";
import type { MailTransport, OutgoingEmail } from "./transport";

const MAX_ATTEMPTS = 8;

/** Retry after 30 s, 1 min, 2 min, ... capped at one hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** (attempts - 1), 3_600_000);
}

/** Sends one email of the outbox (a job of the queue: jobs/job-queue.ts). */
export const sendEmailJob = jobKind<{ emailId: number }>("mail.send");

/**
 * Every email is first written to the outbox table with a job to send it, both in the caller's
 * transaction, then delivered by the transport. A transport outage only delays an email: the job is
 * retried with backoff, never lost.
 */
export class Outbox {
  constructor(
    private readonly db: Database,
    readonly transport: MailTransport,
    private readonly from: string,
  ) {}

  /** Stores the email and its sending job (inside the caller's transaction if `db` is one). */
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
    await enqueueJob(db, sendEmailJob, { emailId: row.id }, { uniqueKey: `mail:${row.id}` });
    return row.id;
  }

  /**
   * The job that sends an email. An email already marked sent is not sent again (a job run again after
   * its instance died after marking it); one that died between sending and marking is sent again.
   */
  sendJob(): JobHandler<{ emailId: number }> {
    return {
      kind: sendEmailJob,
      concurrency: 4,
      maxAttempts: MAX_ATTEMPTS,
      retryDelayMs,
      run: async ({ emailId }, { now }) => {
        const email = await this.db
          .selectFrom("outbox_emails")
          .selectAll()
          .where("id", "=", emailId)
          .where("status", "=", "pending")
          .executeTakeFirst();
        if (!email) return;
        try {
          await this.transport.send({
            from: this.from,
            to: email.to_address,
            subject: email.subject,
            html: email.html,
            text: email.text,
            ...(email.headers ? { headers: email.headers } : {}),
          });
        } catch (error) {
          await this.db
            .updateTable("outbox_emails")
            .set({ attempts: sql`attempts + 1`, last_error: errorMessage(error) })
            .where("id", "=", emailId)
            .execute();
          throw error;
        }
        await this.db
          .updateTable("outbox_emails")
          .set({ status: "sent", sent_at: now, attempts: sql`attempts + 1`, last_error: null })
          .where("id", "=", emailId)
          .execute();
      },
      gaveUp: async ({ emailId }) => {
        await this.db
          .updateTable("outbox_emails")
          .set({ status: "failed" })
          .where("id", "=", emailId)
          .execute();
      },
    };
  }
}

const errorMessage = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).slice(0, 500);
