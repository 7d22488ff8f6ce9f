import type { EventBus } from "../../adapters/events/event-bus";
import { runStampRound, type StampWorkDeps } from "./stamp-queue";

/** How often due stamps are looked for without a kick (retries, stamps queued by a download). */
const INTERVAL_MS = 10_000;

/**
 * Makes the queued stamps in the background, like the outbox delivers emails: a round is kicked when
 * a sale is committed (every instance hears `sales.changed` on the event bus, and SKIP LOCKED gives
 * each stamp to one of them) and runs every 10 s anyway; rounds of one instance never overlap.
 */
export class PdfStampWorker {
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private running: Promise<number> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly deps: StampWorkDeps,
    private readonly now: () => Date,
  ) {}

  /** Runs the due stamps now (a round in progress is followed by another, which sees new work). */
  runDue(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = runStampRound(this.deps, this.now).finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
    return this.running;
  }

  /** Starts the rounds: on every committed sale, and every 10 s. */
  start(events: EventBus): void {
    this.unsubscribe = events.subscribeAll((_userId, event) => {
      if (event.type === "sales.changed") this.kick();
    });
    this.timer = setInterval(() => this.kick(), INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops the rounds and waits for the current one, whatever its outcome (it has been logged). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    this.again = false;
    await this.running?.catch(() => {});
  }

  private kick(): void {
    if (this.stopped) return;
    void this.runDue().catch((error: unknown) =>
      this.deps.log.error({ err: error }, "PDF stamp round failed"),
    );
  }
}
