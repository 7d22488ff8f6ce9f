import { SellerCache } from "../../adapters/events/seller-cache";
import { type FinishedPage, finishPage } from "./respond";

/** A public page as rendered, and the seller whose changes it shows. */
export interface RenderedPage {
  html: string;
  sellerId: string;
}

/**
 * The finished store and product pages (HTML, ETag, compressed bodies), kept per page so most requests
 * neither read the database, nor render, nor compress. Every change a page shows is published for its
 * seller, which drops their pages (see SellerCache); pages also expire after `ttlMs`, so what changes
 * with time alone (a grace period ending, the 30 days after a cancellation) shows without an event.
 */
export class PublicPageCache extends SellerCache<FinishedPage> {
  /** The page under `key`, kept or rendered now; null when `render` finds nothing to show. */
  page(key: string, render: () => Promise<RenderedPage | null>): Promise<FinishedPage | null> {
    return this.get(key, async () => {
      const rendered = await render();
      return rendered && { value: await finishPage(rendered.html), sellerId: rendered.sellerId };
    });
  }
}
