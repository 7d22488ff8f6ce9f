import type { Database } from "../../db/database";
import { enqueueJob, jobKind } from "../../jobs/job-queue";

/** Queues a published post's emails into the outbox, a batch per run (a job of the queue: jobs/job-queue.ts). */
export const queuePostEmailsJob = jobKind<{ postId: string }>("posts.queue-emails");

/** In the transaction that publishes the post: its emails go exactly when it is published. */
export function enqueuePostEmails(trx: Database, postId: string): Promise<void> {
  return enqueueJob(trx, queuePostEmailsJob, { postId }, { uniqueKey: `post-emails:${postId}` });
}
