import type { Store } from "../state/store.js";
import type { DeliveryAttempt, EventRecord, WebhookEndpointName } from "../state/types.js";
import { signatureHeader } from "./sign.js";

export interface WebhookEndpoint {
  url: string;
  secret: string;
}

export interface WebhookEndpoints {
  platform?: WebhookEndpoint;
  connect?: WebhookEndpoint;
}

/** Like Stripe's backoff, compressed so tests see every retry within seconds. */
export const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000];
const ATTEMPT_TIMEOUT_MS = 5000;

interface Logger {
  warn(msg: string): void;
}

/** Posts signed events to the platform and Connect endpoints, retrying until a 2xx or out of attempts. */
export class WebhookDeliverer {
  private endpoints: WebhookEndpoints = {};
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Events with a delivery (and its retries) under way in this process. */
  private readonly underWay = new Set<string>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
  ) {}

  /**
   * Sets the endpoints, and sends what is still pending to them: events whose delivery a restart
   * (or a crash) cut short are sent again, as Stripe keeps retrying an endpoint that was down.
   */
  configure(endpoints: WebhookEndpoints): void {
    this.endpoints = { ...endpoints };
    for (const record of this.store.state.events) {
      if (record.status === "pending" && this.has(record.endpoint)) this.enqueue(record);
    }
  }

  has(name: WebhookEndpointName): boolean {
    return this.endpoints[name] !== undefined;
  }

  /** Delivers in the background, with retries. */
  enqueue(record: EventRecord): void {
    if (this.underWay.has(record.event.id)) return;
    this.underWay.add(record.event.id);
    this.schedule(record, 0, 0);
  }

  /** One attempt now (control API: redeliver, batches in a chosen order), no retries. */
  async deliverOnce(record: EventRecord, trigger: DeliveryAttempt["trigger"]): Promise<DeliveryAttempt> {
    const attempt = this.attempt(record, trigger);
    this.inFlight.add(attempt);
    try {
      return await attempt;
    } finally {
      this.inFlight.delete(attempt);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(record: EventRecord, retryIndex: number, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.deliverOnce(record, retryIndex === 0 ? "initial" : "retry").then(
        (attempt) => {
          const nextDelay = RETRY_DELAYS_MS[retryIndex];
          if (isDelivered(attempt) || nextDelay === undefined || this.closed) {
            this.underWay.delete(record.event.id);
            // A delivery cut short by close() stays pending, to be sent again after a restart.
            // Saved with the next commit; should a crash come first, the restart simply tries again.
            if (!isDelivered(attempt) && !this.closed && record.status === "pending") {
              record.status = "failed";
              this.store.eventChanged(record);
            }
            return;
          }
          this.schedule(record, retryIndex + 1, nextDelay);
        },
        (error: unknown) => {
          // The state could not be saved: the event stays pending and goes out after the next restart.
          this.underWay.delete(record.event.id);
          this.logger.warn(`stripe-emulator: webhook ${record.event.id} not sent: ${String(error)}`);
        },
      );
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private async attempt(record: EventRecord, trigger: DeliveryAttempt["trigger"]): Promise<DeliveryAttempt> {
    // What the event announces must be on disk before anyone hears of it.
    this.store.commit();
    const endpoint = this.endpoints[record.endpoint];
    const started = Date.now();
    const attempt: DeliveryAttempt = {
      at: started,
      url: endpoint?.url ?? "",
      status: null,
      error: null,
      durationMs: 0,
      trigger,
    };
    if (!endpoint) {
      attempt.error = `No ${record.endpoint} webhook endpoint is configured.`;
    } else {
      const body = JSON.stringify(record.event, null, 2);
      try {
        const response = await fetch(endpoint.url, {
          method: "POST",
          headers: {
            "content-type": "application/json; charset=utf-8",
            "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
            "stripe-signature": signatureHeader(body, endpoint.secret, Math.floor(Date.now() / 1000)),
          },
          body,
          signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        });
        attempt.status = response.status;
        await response.body?.cancel();
      } catch (error) {
        attempt.error = error instanceof Error ? error.message : String(error);
      }
    }
    attempt.durationMs = Date.now() - started;
    record.deliveries.push(attempt);
    if (isDelivered(attempt)) {
      record.status = "succeeded";
      record.event.pending_webhooks = 0;
    } else {
      const reason = attempt.error ?? `HTTP ${attempt.status}`;
      this.logger.warn(
        `stripe-emulator: webhook ${record.event.type} (${record.event.id}) not delivered: ${reason}`,
      );
    }
    this.store.eventChanged(record);
    this.store.commit();
    return attempt;
  }
}

function isDelivered(attempt: DeliveryAttempt): boolean {
  return attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
}
