import type { EventBus } from "./event-bus";

/** What a cache keeps for a key, and the seller whose changes it shows. */
export interface SellerValue<T> {
  value: T;
  sellerId: string;
}

interface Entry<T> extends SellerValue<T> {
  expiresAt: number;
}

/**
 * Answers kept per key, each belonging to one seller. Any event on the bus for a seller (on any
 * instance: the bus spans them; on the publishing one at once) drops all of that seller's answers,
 * which is simple and always enough when every change an answer shows is published for its seller.
 * Answers also expire after `ttlMs` on the app's clock, for what changes without an event (time
 * passing, counters too busy to announce). Only what was found is kept: never a failure, never a null.
 * Public pages (public-pages/page-cache.ts) and the dashboard's busiest reads (http/seller-answers.ts)
 * are kept this way.
 */
export class SellerCache<T> {
  /** In least recently used order: a Map iterates in insertion order and a hit is moved to the end. */
  private readonly entries = new Map<string, Entry<T>>();
  /** Work under way, so a burst of requests for a key that is not kept computes it once. */
  private readonly producing = new Map<string, { generation: number; value: Promise<T | null> }>();
  /** Bumped on every drop: work that started before one may have read what changed, so is not kept. */
  private generation = 0;
  private readonly unsubscribe: () => void;

  constructor(
    events: EventBus,
    private readonly options: { now: () => Date; ttlMs: number; maxEntries: number },
  ) {
    this.unsubscribe = events.subscribeAll((userId) => this.dropSeller(userId));
  }

  /** The value under `key`, kept or produced now; null when `produce` finds nothing. */
  async get(key: string, produce: () => Promise<SellerValue<T> | null>): Promise<T | null> {
    const kept = this.fresh(key);
    if (kept) return kept.value;
    const underway = this.producing.get(key);
    if (underway?.generation === this.generation) return underway.value;

    const generation = this.generation;
    const expiresAt = this.options.now().getTime() + this.options.ttlMs;
    const value = (async () => {
      const produced = await produce();
      if (!produced) return null;
      if (generation === this.generation) this.keep(key, { ...produced, expiresAt });
      return produced.value;
    })();
    this.producing.set(key, { generation, value });
    try {
      return await value;
    } finally {
      if (this.producing.get(key)?.value === value) this.producing.delete(key);
    }
  }

  /** Whether `key` is kept and fresh now (asking for it would not produce it). */
  holds(key: string): boolean {
    return this.fresh(key) !== undefined;
  }

  dropSeller(sellerId: string): void {
    this.generation++;
    for (const [key, entry] of this.entries) if (entry.sellerId === sellerId) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  close(): void {
    this.unsubscribe();
    this.entries.clear();
  }

  private fresh(key: string): Entry<T> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.options.now().getTime()) return undefined;
    this.entries.set(key, entry);
    return entry;
  }

  private keep(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }
}
