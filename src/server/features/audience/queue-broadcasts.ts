import { sql } from "kysely";
import type { Outbox } from "../../adapters/mail/outbox";
import { type Database, inTransaction } from "../../db/database";
import type { JobHandler } from "../../jobs/job-queue";
import { broadcastEmail } from "./broadcast-email";
import { queueBroadcastJob } from "./broadcast-job";
import { type BuyerEmailDeps, EMAIL_BATCH_SIZE, enqueueBuyerEmails } from "./email-batches";
import { recipientBatch } from "./recipients";
import { sellerName } from "./send-broadcast";

/** Emails queued per transaction (email-batches.ts). */
export const BROADCAST_BATCH_SIZE = EMAIL_BATCH_SIZE;

export interface BroadcastQueueDeps extends BuyerEmailDeps {
  db: Database;
  outbox: Outbox;
  now: () => Date;
}

/**
 * Queues the next batch of a broadcast still sending, in one transaction: the recipients after the last
 * one queued (refunded and unsubscribed buyers are never among them), an outbox email each, and the
 * broadcast's progress. A crash rolls the batch back and the job's next run queues it again. True while
 * recipients are left.
 */
export async function queueNextBroadcastBatch(
  deps: BroadcastQueueDeps,
  broadcastId: string,
  batchSize = BROADCAST_BATCH_SIZE,
): Promise<boolean> {
  return inTransaction(deps.db, async (trx) => {
    const broadcast = await trx
      .selectFrom("broadcasts")
      .selectAll()
      .where("id", "=", broadcastId)
      .where("status", "=", "sending")
      .forUpdate()
      .executeTakeFirst();
    if (!broadcast) return false;
    const now = deps.now();
    const audience = { audience: broadcast.audience, productId: broadcast.product_id };
    const recipients = await recipientBatch(
      trx,
      broadcast.seller_id,
      audience,
      broadcast.last_email,
      batchSize,
    );
    const content = {
      kind: broadcast.kind,
      subject: broadcast.subject,
      message: broadcast.message,
      sellerName: await sellerName(trx, broadcast.seller_id),
      productTitle: broadcast.product_title,
    };
    await enqueueBuyerEmails(
      trx,
      deps,
      broadcast.seller_id,
      recipients.map(({ email }) => email),
      now,
      (links) => broadcastEmail(content, links),
    );
    const finished = recipients.length < batchSize;
    await trx
      .updateTable("broadcasts")
      .set({
        last_email: recipients.at(-1)?.email ?? broadcast.last_email,
        recipients_count: sql`recipients_count + ${recipients.length}`,
        ...(finished ? { status: "sent" as const, finished_at: now } : {}),
      })
      .where("id", "=", broadcast.id)
      .execute();
    return !finished;
  });
}

/**
 * The job of a broadcast: one batch per run, then "again" while recipients are left, so a large send is
 * many short runs (bounded memory, other jobs run between them) and survives a restart where it stopped.
 */
export function queueBroadcastJobHandler(
  deps: BroadcastQueueDeps,
  batchSize = BROADCAST_BATCH_SIZE,
): JobHandler<{ broadcastId: string }> {
  return {
    kind: queueBroadcastJob,
    run: async ({ broadcastId }) =>
      (await queueNextBroadcastBatch(deps, broadcastId, batchSize)) ? "again" : undefined,
  };
}
