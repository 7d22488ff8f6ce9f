import type { FastifyInstance } from "fastify";
import { AppError } from "../../http/errors";
import { enforceRateLimit } from "../../http/rate-limit";
import { CODE_TRY_LIMIT_MESSAGE } from "../discounts";
import { PublicPageCache } from "./page-cache";
import type { PublicPageDeps } from "./public-page-deps";

/**
 * Everyone sees the same page, so shared caches (a CDN) may keep it a minute; browsers revalidate every
 * time (a 304 on the ETag), so a seller sees their own change at once.
 */
export const PUBLIC_PAGE_CACHE = "public, max-age=0, s-maxage=60";
/** A product or store page reached from elsewhere: the browser revalidates it (a 304), no shared cache keeps it. */
export const SOURCED_PAGE_CACHE = "private, no-cache";
/**
 * The landing page changes only with a release, so shared caches may keep it five minutes; browsers
 * revalidate (a 304), because its header changes when the visitor signs in or out.
 */
export const LANDING_PAGE_CACHE = "public, max-age=0, s-maxage=300";
/**
 * How long a kept store or product page is served without an event saying it changed: what changes
 * with time alone (a grace period ending, the 30 public days after a cancellation) shows within this.
 */
export const PAGE_CACHE_TTL_MS = 10_000;
/** Pages kept per instance: at 15-30 KB each (the brotli and gzip bodies), at most about 60 MB. */
export const PAGE_CACHE_MAX_PAGES = 2_000;
/** Pages with a visit's source, kept apart from the plain ones (see sourcedOrPlain). */
export const SOURCED_PAGE_CACHE_MAX_PAGES = 500;
/** Renders of a page with a source not kept yet, per network: a campaign's visitors share one render. */
export const SOURCED_RENDER_LIMIT = { name: "sourced-page:ip", limit: 30, windowSeconds: 60 };
/** The signed-in variant is that visitor's own. */
export const SIGNED_IN_LANDING_CACHE = "private, no-cache";

/** The kept product and store pages of this instance, and how a visit with a source picks its cache. */
export type KeptPages = ReturnType<typeof keptPages>;

/**
 * Two caches of finished pages (page-cache.ts): the plain pages, and those carrying a visit's source,
 * both dropped by any event for their seller and closed with the server.
 */
export function keptPages(app: FastifyInstance, deps: PublicPageDeps) {
  const pages = new PublicPageCache(deps.events, {
    now: deps.now,
    ttlMs: PAGE_CACHE_TTL_MS,
    maxEntries: PAGE_CACHE_MAX_PAGES,
  });
  // Pages carrying a visit's source (utm fields, a referring host) are keyed by values anyone can make
  // up: kept apart, so made-up ones never push the plain pages out, and rendered for one network at most
  // SOURCED_RENDER_LIMIT times a minute (past that it gets the plain page: only its attribution is lost).
  const sourcedPages = new PublicPageCache(deps.events, {
    now: deps.now,
    ttlMs: PAGE_CACHE_TTL_MS,
    maxEntries: SOURCED_PAGE_CACHE_MAX_PAGES,
  });
  app.addHook("onClose", async () => {
    pages.close();
    sourcedPages.close();
  });
  /** The kept page under `key`, or the plain one under `plainKey` when this network renders too many. */
  const sourcedOrPlain = async (request: { ip: string }, key: string, plainKey: string) => {
    if (sourcedPages.holds(key)) return { cache: sourcedPages, key };
    try {
      await enforceRateLimit(deps.db, SOURCED_RENDER_LIMIT, request.ip, CODE_TRY_LIMIT_MESSAGE, deps.now());
      return { cache: sourcedPages, key };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { cache: pages, key: plainKey };
    }
  };
  return { pages, sourcedOrPlain };
}
