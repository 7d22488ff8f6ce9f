import { sql } from "kysely";
import type { Logger } from "pino";
import { WEBHOOK_MESSAGES } from "../../../contracts/webhooks";
import type { Database } from "../../db/database";
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
/** A claimed delivery is someone's for this long: longer than a whole attempt (lookup and timeout). */
const LEASE_MS = 2 * MINUTE_MS;
const BATCH_SIZE = 10;
const MAX_BATCHES_PER_ROUND = 10;
const ERROR_MAX_LENGTH = 500;

/** The wait after a round's `attempt`-th failed try (1-based). */
export function retryDelayMs(attempt: number): number {
  return RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length) - 1]!;
}

export interface WebhookDeliveryDeps {
  db: Database;
  policy: WebhookNetworkPolicy;
  /** The app's clock: attempts, timestamps and retries follow it (tests move it). */
  now: () => Date;
  log: Pick<Logger, "warn" | "error">;
  resolve?: Resolver;
  timeoutMs?: number;
}

/** `error` is what the seller sees; `detail`, what went wrong as the server saw it, only goes to the log. */
type Outcome = { responseStatus: number | null; error: string | null; detail?: string };

/**
 * The delivery worker of the webhook queue. Several instances may run it: a delivery is claimed with
 * FOR UPDATE SKIP LOCKED and a lease, sent outside any transaction, then recorded. An instance that
 * dies mid-send leaves the lease to run out, and the delivery is tried again.
 */
export class WebhookDeliveries {
  private timer: NodeJS.Timeout | undefined;
  private delivering: Promise<number> | undefined;
  private kickedDuringRound = false;

  constructor(private readonly deps: WebhookDeliveryDeps) {}

  /** Sends what is due at `now`. Rounds never overlap on one instance. */
  deliverDue(now: Date = this.deps.now()): Promise<number> {
    if (!this.delivering) {
      this.delivering = this.deliverRound(now).finally(() => {
        this.delivering = undefined;
      });
    }
    return this.delivering;
  }

  /** A round as soon as possible, e.g. after a change that queued deliveries has committed. */
  kick(): void {
    if (this.delivering) {
      // The change may have committed after this round's claim: one more round once it ends.
      this.kickedDuringRound = true;
      return;
    }
    void this.deliverDue().then(
      () => {
        if (!this.kickedDuringRound) return;
        this.kickedDuringRound = false;
        this.kick();
      },
      (error: unknown) => this.deps.log.error({ err: error }, "webhook delivery round failed"),
    );
  }

  /** A round every `intervalMs` for retries that come due; a failed one is logged and the next retries. */
  start(intervalMs = 5_000): void {
    this.timer = setInterval(() => this.kick(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.delivering?.catch(() => {});
  }

  private async deliverRound(now: Date): Promise<number> {
    let attempted = 0;
    for (let batch = 0; batch < MAX_BATCHES_PER_ROUND; batch++) {
      const claimed = await this.claimDue(now);
      // Each endpoint answers at its own pace: a slow one does not hold up the others of the batch.
      await Promise.all(claimed.map((delivery) => this.attempt(delivery, now)));
      attempted += claimed.length;
      if (claimed.length < BATCH_SIZE) break;
    }
    return attempted;
  }

  private async claimDue(now: Date) {
    const { db } = this.deps;
    return db
      .updateTable("webhook_deliveries")
      .set({ next_attempt_at: new Date(now.getTime() + LEASE_MS) })
      .where(
        "webhook_deliveries.id",
        "in",
        db
          .selectFrom("webhook_deliveries")
          .select("webhook_deliveries.id")
          .where("status", "=", "pending")
          .where("next_attempt_at", "<=", now)
          .orderBy("next_attempt_at")
          .limit(BATCH_SIZE)
          .forUpdate()
          .skipLocked(),
      )
      .from("webhook_endpoints")
      .whereRef("webhook_endpoints.id", "=", "webhook_deliveries.endpoint_id")
      .returning([
        "webhook_deliveries.id",
        "webhook_deliveries.payload",
        "webhook_deliveries.round_attempts",
        "webhook_deliveries.round_started_at",
        "webhook_endpoints.url",
        "webhook_endpoints.secret",
      ])
      .execute();
  }

  private async attempt(
    delivery: Awaited<ReturnType<WebhookDeliveries["claimDue"]>>[number],
    now: Date,
  ): Promise<void> {
    const outcome = await this.send(delivery, now);
    const succeeded =
      outcome.responseStatus !== null && outcome.responseStatus >= 200 && outcome.responseStatus < 300;
    const roundAttempts = delivery.round_attempts + 1;
    const nextAttemptAt = new Date(now.getTime() + retryDelayMs(roundAttempts));
    const givesUp = nextAttemptAt.getTime() > delivery.round_started_at.getTime() + RETRY_WINDOW_MS;
    if (!succeeded) {
      this.deps.log.warn(
        {
          deliveryId: delivery.id,
          responseStatus: outcome.responseStatus,
          error: outcome.detail ?? outcome.error,
        },
        "webhook delivery failed",
      );
    }
    await this.deps.db
      .updateTable("webhook_deliveries")
      .set({
        status: succeeded ? "succeeded" : givesUp ? "failed" : "pending",
        attempts: sql`attempts + 1`,
        round_attempts: roundAttempts,
        last_attempt_at: now,
        last_response_status: outcome.responseStatus,
        last_error: outcome.error,
        next_attempt_at: succeeded || givesUp ? now : nextAttemptAt,
      })
      .where("id", "=", delivery.id)
      .execute();
  }

  /** One signed POST: a fresh timestamp and signature per attempt, the same webhook-id. */
  private async send(
    delivery: { id: string; payload: string; url: string; secret: string },
    now: Date,
  ): Promise<Outcome> {
    const timestamp = Math.floor(now.getTime() / 1000);
    try {
      const url = new URL(delivery.url);
      const addresses = await resolveDeliveryTarget(
        url,
        this.deps.policy,
        this.deps.resolve ?? systemResolver,
      );
      const responseStatus = await postWebhook(
        url,
        addresses,
        {
          "webhook-id": delivery.id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signWebhook(delivery.secret, delivery.id, timestamp, delivery.payload),
        },
        delivery.payload,
        this.deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
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
