import { FileText } from "lucide-react";
import { StoreAvatar } from "../storefront/store-avatar";

/**
 * How buyers meet the store, drawn small: the top of a product page, with the store's name and
 * picture in its header and the 'Sold by' byline under the product's title.
 */
export function StorePreview({ name, pictureUrl }: { name: string; pictureUrl: string | null }) {
  return (
    <figure className="min-w-0">
      <figcaption className="text-sm font-medium text-ink">How buyers see it</figcaption>
      <div className="mt-2 overflow-hidden rounded-xl border border-line bg-canvas shadow-card">
        <div className="flex min-w-0 items-center gap-2 border-b border-line bg-white px-3 py-2.5">
          <StoreAvatar url={pictureUrl} name={name} className="size-6" />
          <span
            className="min-w-0 truncate text-sm font-semibold text-ink"
            data-testid="preview-store-header"
          >
            {name}
          </span>
        </div>
        <div className="flex min-w-0 gap-3 p-3">
          <span className="flex h-14 w-20 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
            <FileText className="size-5" aria-hidden="true" />
          </span>
          <div className="min-w-0 space-y-1.5">
            <p className="text-sm font-semibold text-ink">Your product</p>
            <div className="flex min-w-0 items-center gap-2">
              <StoreAvatar url={pictureUrl} name={name} className="size-6" />
              <p className="min-w-0 text-xs text-muted">
                Sold by{" "}
                <span className="block truncate text-sm font-semibold text-ink" data-testid="preview-sold-by">
                  {name}
                </span>
              </p>
            </div>
          </div>
        </div>
      </div>
    </figure>
  );
}
