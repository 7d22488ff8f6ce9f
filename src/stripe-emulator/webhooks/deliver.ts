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
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
  ) {}

  configure(endpoints: WebhookEndpoints): void {
    this.endpoints = { ...endpoints };
  }

  has(name: WebhookEndpointName): boolean {
    return this.endpoints[name] !== undefined;
  }

  /** Delivers in the background, with retries. */
  enqueue(record: EventRecord): void {
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
      void this.deliverOnce(record, retryIndex === 0 ? "initial" : "retry").then((attempt) => {
        if (isDelivered(attempt)) return;
        const nextDelay = RETRY_DELAYS_MS[retryIndex];
        if (nextDelay === undefined || this.closed) {
          if (record.status === "pending") record.status = "failed";
          this.store.changed();
          return;
        }
        this.schedule(record, retryIndex + 1, nextDelay);
      });
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private async attempt(record: EventRecord, trigger: DeliveryAttempt["trigger"]): Promise<DeliveryAttempt> {
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
    this.store.changed();
    return attempt;
  }
}

function isDelivered(attempt: DeliveryAttempt): boolean {
  return attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
}
