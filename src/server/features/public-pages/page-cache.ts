import type { EventBus } from "../../adapters/events/event-bus";
import { type FinishedPage, finishPage } from "./respond";

/** A public page as rendered, and the seller whose changes it shows. */
export interface RenderedPage {
  html: string;
  sellerId: string;
}

interface Entry {
  page: FinishedPage;
  sellerId: string;
  expiresAt: number;
}

/**
 * Says that what buyers see of a seller changed (a product created, edited, deleted; its stock taken or
 * given back; the store's settings), so every app instance drops its copies of that seller's public
 * pages. Call it once the change is committed. Plan standing, Stripe onboarding, sales and refunds need
 * no call: any event published for a seller drops their pages (see PublicPageCache).
 */
export function publishPublicPageChange(events: EventBus, sellerId: string): Promise<void> {
  return events.publish(sellerId, { type: "public-pages.changed" });
}

/**
 * The finished store and product pages (HTML, ETag, compressed bodies), kept per page so most requests
 * neither read the database, nor render, nor compress. Any event on the bus for a seller (on any
 * instance: the bus spans them) drops all of that seller's pages, which is simple and always enough:
 * every change a page shows is published for its seller. Pages also expire after `ttlMs` on the app's
 * clock, so what changes with time alone (a grace period ending, the 30 days after a cancellation)
 * shows without an event. Only pages that rendered are kept: never a failure, never a not-found.
 */
export class PublicPageCache {
  /** In least recently used order: a Map iterates in insertion order and a hit is moved to the end. */
  private readonly entries = new Map<string, Entry>();
  /** Renders under way, so a burst of requests for a page that is not kept renders it once. */
  private readonly rendering = new Map<string, { generation: number; page: Promise<FinishedPage | null> }>();
  /** Bumped on every drop: a render that started before one may have read what changed, so is not kept. */
  private generation = 0;
  private readonly unsubscribe: () => void;

  constructor(
    events: EventBus,
    private readonly options: { now: () => Date; ttlMs: number; maxPages: number },
  ) {
    this.unsubscribe = events.subscribeAll((userId) => this.dropSeller(userId));
  }

  /** The page under `key`, kept or rendered now; null when `render` finds nothing to show. */
  async page(key: string, render: () => Promise<RenderedPage | null>): Promise<FinishedPage | null> {
    const kept = this.fresh(key);
    if (kept) return kept.page;
    const underway = this.rendering.get(key);
    if (underway?.generation === this.generation) return underway.page;

    const generation = this.generation;
    const expiresAt = this.options.now().getTime() + this.options.ttlMs;
    const page = (async () => {
      const rendered = await render();
      if (!rendered) return null;
      const finished = await finishPage(rendered.html);
      if (generation === this.generation)
        this.keep(key, { page: finished, sellerId: rendered.sellerId, expiresAt });
      return finished;
    })();
    this.rendering.set(key, { generation, page });
    try {
      return await page;
    } finally {
      if (this.rendering.get(key)?.page === page) this.rendering.delete(key);
    }
  }

  /** Whether `key` is kept and fresh now (a request for it would not render). */
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

  private fresh(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.options.now().getTime()) return undefined;
    this.entries.set(key, entry);
    return entry;
  }

  private keep(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.options.maxPages) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }
}
