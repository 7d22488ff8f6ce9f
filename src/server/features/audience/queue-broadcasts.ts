import { sql } from "kysely";
import type { Logger } from "pino";
import type { Outbox } from "../../adapters/mail/outbox";
import { type Database, inTransaction } from "../../db/database";
import { libraryPath, libraryToken } from "../orders/buyer-links";
import { broadcastEmail } from "./broadcast-email";
import { recipientBatch } from "./recipients";
import { sellerName } from "./send-broadcast";
import { unsubscribePath, unsubscribeToken } from "./unsubscribe";

/** Emails queued per transaction: a send to 20,000 buyers is 200 short transactions, not one long one. */
export const BROADCAST_BATCH_SIZE = 100;
/** One run queues batches for at most this long, so it never holds the maintenance loop for long. */
const RUN_BUDGET_MS = 20_000;

export interface BroadcastQueueDeps {
  db: Database;
  outbox: Outbox;
  appUrl: string;
  /** Signs the buyers' unsubscribe links (unsubscribe.ts). */
  unsubscribeKey: string;
  /** Signs their library links (a product update's "Get the new files"). */
  linkKey: string;
  now: () => Date;
  log: Pick<Logger, "error">;
}

/**
 * Queues the next batch of the oldest broadcast still sending, in one transaction: the recipients after
 * the last one queued (refunded and unsubscribed buyers are never among them), an outbox email each,
 * and the broadcast's progress. The row is locked (SKIP LOCKED), so instances never queue the same
 * batch; a crash rolls the batch back and the next run queues it again. False when nothing was left.
 */
export async function queueNextBroadcastBatch(
  deps: BroadcastQueueDeps,
  batchSize = BROADCAST_BATCH_SIZE,
): Promise<boolean> {
  return inTransaction(deps.db, async (trx) => {
    const broadcast = await trx
      .selectFrom("broadcasts")
      .selectAll()
      .where("status", "=", "sending")
      .orderBy("created_at")
      .limit(1)
      .forUpdate()
      .skipLocked()
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
    };
    for (const { email } of recipients) {
      const token = unsubscribeToken(deps.unsubscribeKey, broadcast.seller_id, email);
      const libraryUrl = `${deps.appUrl}${libraryPath(libraryToken(deps.linkKey, email, now))}`;
      await deps.outbox.enqueue(
        broadcastEmail(content, {
          to: email,
          unsubscribeUrl: `${deps.appUrl}${unsubscribePath(token)}`,
          libraryUrl,
        }),
        trx,
      );
    }
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
    return true;
  });
}

/** Queues batches until every broadcast is fully queued, or the run's time is up (the next run goes on). */
export async function queueBroadcasts(
  deps: BroadcastQueueDeps,
  batchSize = BROADCAST_BATCH_SIZE,
): Promise<void> {
  const deadline = Date.now() + RUN_BUDGET_MS;
  while (Date.now() < deadline && (await queueNextBroadcastBatch(deps, batchSize))) {}
}

/**
 * Runs of the queue, never two at once in one process: a new send starts one right away (so a small
 * audience is queued within the request's second), the maintenance job every 30 s picks up the rest
 * and anything a crash left. A run asked for while one is going runs again after it.
 */
export function broadcastQueue(deps: BroadcastQueueDeps) {
  let running: Promise<void> | undefined;
  let again = false;
  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await queueBroadcasts(deps);
      } while (again);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };
  return {
    run,
    /** A run in the background; its failure is logged and the job retries. */
    kick(): void {
      void run().catch((error) => deps.log.error({ err: error }, "queueing emails to buyers failed"));
    },
    /** Waits for the current run, whatever its outcome, so nothing uses the database after it closes. */
    async idle(): Promise<void> {
      await running?.catch(() => {});
    },
  };
}
export type BroadcastQueue = ReturnType<typeof broadcastQueue>;
