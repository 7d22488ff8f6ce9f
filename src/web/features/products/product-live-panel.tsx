import { CheckCircle2, Copy, ExternalLink, Mail, Share2 } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { PRODUCT_MESSAGES, type SellerProduct, type SellerProductDetail } from "../../../contracts/products";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { copyToClipboard } from "../../lib/clipboard";
import { ShareEmbedDialog } from "../embed/share-embed-dialog";
import { StoreProductCard } from "../storefront/store-product-card";
import { ProductForm, ProductFormFrame } from "./product-form-view";
import { productUrl } from "./products-api";

/** Where the seller can post the link when the device has no share sheet. */
export function shareLinks(title: string, url: string) {
  return {
    email: `mailto:?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(url)}`,
    x: `https://x.com/intent/post?text=${encodeURIComponent(title)}&url=${encodeURIComponent(url)}`,
  };
}

/**
 * The panel replaces the form the seller scrolled down: back to the top, and the heading focused so
 * keyboard and screen reader users land on the news. One function for every render: React calls a ref
 * callback again whenever it changes.
 */
function focusOnMount(element: HTMLElement | null) {
  if (!element) return;
  window.scrollTo({ top: 0 });
  element.focus({ preventScroll: true });
}

/** The product as a buyer sees it in the store grid: the preview of what was just published. */
function asStoreCard(product: SellerProduct) {
  const soldOut = product.inventoryType === "limited" && (product.quantityAvailable ?? 0) <= 0;
  return { ...product, soldOut, purchasable: !soldOut, unavailableReason: null };
}

/**
 * "It's live": after Publish or Save, the product's public link with Copy, Open and Share, and a
 * preview of its card. `actions` are the ways on (dashboard, edit, another product).
 */
export function ProductLivePanel({
  product,
  heading,
  actions,
}: {
  product: SellerProduct;
  heading: string;
  actions: ReactNode;
}) {
  const id = useId();
  const url = productUrl(window.location.origin, product.id);
  const canShare = typeof navigator.share === "function";
  const links = shareLinks(product.title, url);
  const share = () => {
    // A dismissed share sheet rejects; there is nothing to report.
    navigator.share({ title: product.title, url }).catch(() => {});
  };

  return (
    <Card className="p-5 sm:p-8">
      <section aria-labelledby={`${id}-heading`} className="space-y-6">
        <div className="flex items-start gap-3">
          <CheckCircle2 className="mt-0.5 size-7 shrink-0 text-emerald-600" aria-hidden="true" />
          <div className="min-w-0">
            <h2
              id={`${id}-heading`}
              tabIndex={-1}
              ref={focusOnMount}
              className="text-xl font-semibold tracking-tight text-ink outline-none"
            >
              {heading}
            </h2>
            <p className="mt-1 text-sm text-muted">
              {product.kind === "membership"
                ? "Share this link: members choose a tier and subscribe on it."
                : "Share this link: buyers pay on it and get their download at once."}
            </p>
          </div>
        </div>

        <div className="space-y-3">
          <Label htmlFor={`${id}-link`} className="block">
            Product link
          </Label>
          <Input
            id={`${id}-link`}
            readOnly
            value={url}
            onFocus={(event) => event.currentTarget.select()}
            className="font-mono text-xs sm:text-sm"
          />
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => void copyToClipboard(url, PRODUCT_MESSAGES.linkCopied)}>
              <Copy aria-hidden="true" />
              Copy
            </Button>
            <Button asChild variant="secondary">
              <a href={url} target="_blank" rel="noopener noreferrer">
                <ExternalLink aria-hidden="true" />
                Open<span className="sr-only"> (new tab)</span>
              </a>
            </Button>
            <ShareEmbedDialog product={product} triggerLabel="Embed" />
            {canShare ? (
              <Button variant="secondary" onClick={share}>
                <Share2 aria-hidden="true" />
                Share
              </Button>
            ) : (
              <>
                <Button asChild variant="secondary">
                  <a href={links.email}>
                    <Mail aria-hidden="true" />
                    Email
                  </a>
                </Button>
                <Button asChild variant="secondary">
                  <a href={links.x} target="_blank" rel="noopener noreferrer">
                    Post on X<span className="sr-only"> (new tab)</span>
                  </a>
                </Button>
              </>
            )}
          </div>
        </div>

        <div className="space-y-2">
          <p className="text-sm font-medium text-ink">Preview</p>
          <div className="max-w-sm">
            <StoreProductCard product={asStoreCard(product)} />
          </div>
        </div>

        <div className="flex flex-col-reverse gap-3 border-t border-line pt-6 sm:flex-row sm:justify-end">
          {actions}
        </div>
      </section>
    </Card>
  );
}

/**
 * /new and the edit page: the product form in its frame, then, once saved, the live panel in its
 * place. `again` (for the panel's actions) brings back a fresh form: empty on /new, the saved
 * product's values on the edit page.
 */
export function ProductFormThenLive({
  title,
  subtitle,
  userId,
  product,
  liveHeading,
  liveActions,
}: {
  title: string;
  subtitle: string;
  userId: string;
  product?: SellerProductDetail;
  liveHeading: string;
  liveActions: (saved: SellerProduct, again: () => void) => ReactNode;
}) {
  const [saved, setSaved] = useState<SellerProduct | null>(null);
  // A new key mounts a new form (default values, no chosen files) after each save.
  const [formKey, setFormKey] = useState(0);
  const again = () => {
    setSaved(null);
    setFormKey((key) => key + 1);
  };
  return (
    <ProductFormFrame title={title} subtitle={subtitle}>
      {saved ? (
        <ProductLivePanel product={saved} heading={liveHeading} actions={liveActions(saved, again)} />
      ) : (
        <ProductForm key={formKey} userId={userId} onSaved={setSaved} {...(product ? { product } : {})} />
      )}
    </ProductFormFrame>
  );
}
