import type { Database } from "../../db/database";
import { enqueueJob, jobKind } from "../../jobs/job-queue";

/** Queues a broadcast's emails into the outbox, a batch per run (a job of the queue: jobs/job-queue.ts). */
export const queueBroadcastJob = jobKind<{ broadcastId: string }>("audience.queue-broadcast");

/** In the transaction that creates the broadcast: it is sent exactly when it exists. */
export function enqueueBroadcast(trx: Database, broadcastId: string): Promise<void> {
  return enqueueJob(trx, queueBroadcastJob, { broadcastId }, { uniqueKey: `broadcast:${broadcastId}` });
}
