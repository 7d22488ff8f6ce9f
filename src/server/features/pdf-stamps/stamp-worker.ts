import type { EventBus } from "../../adapters/events/event-bus";
import { type ClaimedStamp, claimNextStamp, makeStamp, type StampWorkDeps } from "./stamp-queue";

/** How often due stamps are looked for without a kick (retries, stamps queued by a download). */
const INTERVAL_MS = 10_000;
/**
 * Stamps made at once by one instance (each holds a temporary copy of its PDF on disk), at most one
 * per seller: a seller with many stamps, or slow ones, leaves the other slot to everyone else.
 */
const SLOTS = 2;

/**
 * Makes the queued stamps in the background, like the outbox delivers emails: the free slots are
 * filled when a sale is committed (every instance hears `sales.changed` on the event bus, and SKIP
 * LOCKED gives each stamp to one of them), when a stamp ends, and every 10 s anyway.
 */
export class PdfStampWorker {
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  /** The stamps being made, and the sellers they are for. */
  private readonly inFlight = new Set<Promise<void>>();
  private readonly busySellers = new Set<string>();
  /** Claiming in progress; `fillAgain` asks for another pass once it ends (a slot freed meanwhile). */
  private filling = false;
  private fillAgain = false;
  /** Stamps ended since the worker was last idle, and who waits for it to be idle. */
  private made = 0;
  private waiters: Array<{ resolve: (made: number) => void; reject: (error: unknown) => void }> = [];
  private stopped = false;

  constructor(
    private readonly deps: StampWorkDeps,
    private readonly now: () => Date,
  ) {}

  /** Makes the due stamps; resolves with how many were made once nothing is left that it can take. */
  runDue(): Promise<number> {
    const idle = new Promise<number>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.fill();
    return idle;
  }

  /** Starts the work: on every committed sale, and every 10 s. */
  start(events: EventBus): void {
    this.unsubscribe = events.subscribeAll((_userId, event) => {
      if (event.type === "sales.changed") this.kick();
    });
    this.timer = setInterval(() => this.kick(), INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops claiming and waits for the stamps being made, whatever their outcome (it has been logged). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    await new Promise<unknown>((resolve) => {
      this.waiters.push({ resolve, reject: resolve });
      this.settleIfIdle();
    });
  }

  private kick(): void {
    if (this.stopped) return;
    void this.runDue().catch((error: unknown) =>
      this.deps.log.error({ err: error }, "PDF stamp round failed"),
    );
  }

  /** Claims due stamps into the free slots, skipping the sellers a slot is already busy with. */
  private fill(): void {
    if (this.filling) {
      this.fillAgain = true;
      return;
    }
    this.filling = true;
    const claim = async () => {
      do {
        this.fillAgain = false;
        while (!this.stopped && this.inFlight.size < SLOTS) {
          const stamp = await claimNextStamp(this.deps.db, this.now(), [...this.busySellers]);
          if (!stamp) break;
          this.startStamp(stamp);
        }
      } while (this.fillAgain && !this.stopped);
    };
    claim().then(
      () => {
        this.filling = false;
        // A stamp that ended between the last claim and now frees its seller: look again.
        if (this.fillAgain && !this.stopped) this.fill();
        else this.settleIfIdle();
      },
      (error: unknown) => {
        this.filling = false;
        const waiters = this.waiters;
        this.waiters = [];
        for (const waiter of waiters) waiter.reject(error);
      },
    );
  }

  private startStamp(stamp: ClaimedStamp): void {
    this.busySellers.add(stamp.seller_id);
    const work: Promise<void> = makeStamp(this.deps, stamp, this.now)
      .catch((error: unknown) =>
        // Left leased: it is taken up again when the lease ends, and its attempts are counted.
        this.deps.log.error({ err: error, stampId: stamp.id }, "PDF stamp failed"),
      )
      .finally(() => {
        this.busySellers.delete(stamp.seller_id);
        this.inFlight.delete(work);
        this.made++;
        this.fill();
      });
    this.inFlight.add(work);
  }

  private settleIfIdle(): void {
    if (this.filling || this.inFlight.size > 0) return;
    const waiters = this.waiters;
    const made = this.made;
    this.waiters = [];
    this.made = 0;
    for (const waiter of waiters) waiter.resolve(made);
  }
}
