import { runDueWork } from "./actions/due-work.js";
import { Clock } from "./clock.js";
import { Store } from "./state/store.js";
import { WebhookDeliverer, type WebhookEndpoints } from "./webhooks/deliver.js";
import { EventLog } from "./webhooks/events.js";

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

/** Everything the API, the hosted pages and the control API share. */
export class Emulator {
  readonly store: Store;
  readonly clock: Clock;
  readonly webhooks: WebhookDeliverer;
  readonly events: EventLog;
  /** Base URL of the hosted pages; known once the server listens. */
  publicUrl = "";

  constructor(
    stateFile: string | undefined,
    readonly logger: Logger,
    endpoints: WebhookEndpoints,
  ) {
    this.store = new Store(stateFile);
    this.clock = new Clock(this.store);
    this.webhooks = new WebhookDeliverer(this.store, logger);
    this.webhooks.configure(endpoints);
    this.events = new EventLog(
      this.store,
      this.clock,
      (endpoint) => this.webhooks.has(endpoint),
      (record) => this.webhooks.enqueue(record),
    );
  }

  private ticker: NodeJS.Timeout | undefined;

  now(): number {
    return this.clock.now();
  }

  /** Checks once a second for sessions to expire and subscriptions to renew. */
  start(): void {
    this.ticker = setInterval(() => this.runDueWork(), 1000);
    this.ticker.unref();
  }

  stop(): void {
    clearInterval(this.ticker);
  }

  runDueWork(): void {
    try {
      runDueWork(this);
      this.store.commit();
    } catch (error) {
      this.logger.error(`stripe-emulator: ${String(error)}`);
    }
  }
}
