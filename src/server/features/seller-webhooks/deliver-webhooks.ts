import { sql } from "kysely";
import { WEBHOOK_MESSAGES } from "../../../contracts/webhooks";
import type { Database } from "../../db/database";
import { enqueueJob, type JobHandler, jobKind } from "../../jobs/job-queue";
import {
  type Resolver,
  resolveDeliveryTarget,
  systemResolver,
  type WebhookNetworkPolicy,
  WebhookTargetRefused,
} from "./address-policy";
import { postWebhook, WEBHOOK_TIMEOUT_MS, WebhookTimeout } from "./post-webhook";
import { signWebhook } from "./signature";

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
/** How long a round of retries lasts before a delivery is marked failed. */
export const RETRY_WINDOW_MS = 3 * 24 * HOUR_MS;
/** After the first try: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then every 10 h until the window ends. */
const RETRY_DELAYS_MS = [
  5 * SECOND_MS,
  5 * MINUTE_MS,
  30 * MINUTE_MS,
  2 * HOUR_MS,
  5 * HOUR_MS,
  10 * HOUR_MS,
];
const ERROR_MAX_LENGTH = 500;

/** The wait after a round's `attempt`-th failed try (1-based). */
export function retryDelayMs(attempt: number): number {
  return RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length) - 1]!;
}

/** The tries of a round: the last is the one after which the next would fall past the window. */
export const ATTEMPTS_PER_ROUND = (() => {
  let attempts = 1;
  let elapsed = 0;
  while (elapsed + retryDelayMs(attempts) <= RETRY_WINDOW_MS) elapsed += retryDelayMs(attempts++);
  return attempts;
})();

/** One try of one delivery (a job of the queue: jobs/job-queue.ts). */
export const deliverWebhookJob = jobKind<{ deliveryId: string }>("seller-webhooks.deliver");

/** The job of a delivery, in the caller's transaction; `restart` begins a new round (a resend). */
export async function enqueueDelivery(db: Database, deliveryId: string, restart = false): Promise<void> {
  await enqueueJob(
    db,
    deliverWebhookJob,
    { deliveryId },
    { uniqueKey: `webhook-delivery:${deliveryId}`, restart },
  );
}

export interface WebhookDeliveryDeps {
  db: Database;
  policy: WebhookNetworkPolicy;
  resolve?: Resolver;
  timeoutMs?: number;
}

/** `error` is what the seller sees; `detail`, what went wrong as the server saw it, only goes to the log. */
type Outcome = { responseStatus: number | null; error: string | null; detail?: string };

/**
 * The job that delivers a webhook: one signed POST, sent outside any transaction, then recorded on the
 * delivery (what the seller's delivery list shows). A failed try throws, and the queue tries again after
 * the round's next delay; after the round's last try the delivery is failed (the seller may resend it).
 * An instance that dies mid-send leaves the job's lease to run out, and it is sent again: at least once,
 * always with the same webhook-id.
 */
export function deliverWebhookJobHandler(deps: WebhookDeliveryDeps): JobHandler<{ deliveryId: string }> {
  return {
    kind: deliverWebhookJob,
    // Each endpoint answers at its own pace: a slow one does not hold up the others.
    concurrency: 10,
    maxAttempts: ATTEMPTS_PER_ROUND,
    retryDelayMs,
    run: async ({ deliveryId }, { attempt, now }) => {
      const delivery = await deps.db
        .selectFrom("webhook_deliveries")
        .innerJoin("webhook_endpoints", "webhook_endpoints.id", "webhook_deliveries.endpoint_id")
        .select([
          "webhook_deliveries.id",
          "webhook_deliveries.payload",
          "webhook_endpoints.url",
          "webhook_endpoints.secret",
        ])
        .where("webhook_deliveries.id", "=", deliveryId)
        .where("webhook_deliveries.status", "=", "pending")
        .executeTakeFirst();
      if (!delivery) return undefined;
      const outcome = await send(deps, delivery, now);
      const succeeded =
        outcome.responseStatus !== null && outcome.responseStatus >= 200 && outcome.responseStatus < 300;
      const givesUp = !succeeded && attempt >= ATTEMPTS_PER_ROUND;
      await deps.db
        .updateTable("webhook_deliveries")
        .set({
          status: succeeded ? "succeeded" : givesUp ? "failed" : "pending",
          attempts: sql`attempts + 1`,
          round_attempts: attempt,
          last_attempt_at: now,
          last_response_status: outcome.responseStatus,
          last_error: outcome.error,
          next_attempt_at: succeeded || givesUp ? now : new Date(now.getTime() + retryDelayMs(attempt)),
        })
        .where("id", "=", delivery.id)
        .execute();
      if (succeeded) return undefined;
      const detail = outcome.detail ?? outcome.error ?? `HTTP ${outcome.responseStatus}`;
      // The delivery records its failure; the queue keeps the failed job too, for the operator.
      throw new WebhookAttemptFailed(`webhook delivery ${delivery.id} failed: ${detail}`);
    },
  };
}

class WebhookAttemptFailed extends Error {}

/** One signed POST: a fresh timestamp and signature per attempt, the same webhook-id. */
async function send(
  deps: WebhookDeliveryDeps,
  delivery: { id: string; payload: string; url: string; secret: string },
  now: Date,
): Promise<Outcome> {
  const timestamp = Math.floor(now.getTime() / 1000);
  try {
    const url = new URL(delivery.url);
    const addresses = await resolveDeliveryTarget(url, deps.policy, deps.resolve ?? systemResolver);
    const responseStatus = await postWebhook(
      url,
      addresses,
      {
        "webhook-id": delivery.id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signWebhook(delivery.secret, delivery.id, timestamp, delivery.payload),
      },
      delivery.payload,
      deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
    );
    return { responseStatus, error: null };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      responseStatus: null,
      error: sellerFacingError(error),
      detail: detail.slice(0, ERROR_MAX_LENGTH),
    };
  }
}

/**
 * A failed attempt as its seller sees it: what the server resolved a name to, which names it cannot
 * resolve, or a connection error's code would tell a prober about our network, so only these three.
 */
function sellerFacingError(error: unknown): string {
  if (error instanceof WebhookTargetRefused) return WEBHOOK_MESSAGES.deliveryRefused;
  if (error instanceof WebhookTimeout) return WEBHOOK_MESSAGES.deliveryTimedOut;
  return WEBHOOK_MESSAGES.deliveryConnectionFailed;
}
