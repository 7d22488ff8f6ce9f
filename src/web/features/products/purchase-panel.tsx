import { Download, ShieldCheck } from "lucide-react";
import { formatPrice, PURCHASE_UNAVAILABLE, type PublicProduct } from "../../../contracts/products";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { DownloadTermsItems, NoteItem } from "../downloads/download-terms-notes";
import { type ResendAnswer, ResendLinkPanel } from "../downloads/resend-link-panel";
import { SOLD_OUT_BADGE, stockNotice } from "./stock";

/** What the server answered the page's last form post with. */
export interface PurchaseAnswer {
  /** Why Buy Now was refused (sold out, not purchasable, too many). */
  buyRefused?: string;
  resend?: ResendAnswer;
}

/** Buy Now posts a plain form: the server answers 303 to Stripe Checkout, so no script is needed. */
function BuyButton({ product }: { product: PublicProduct }) {
  if (product.soldOut) {
    return (
      <Button size="lg" className="w-full" disabled>
        {PURCHASE_UNAVAILABLE.soldOut}
      </Button>
    );
  }
  return (
    <form method="post" action={`/product/${product.id}/buy`} data-buy-now="">
      <Button type="submit" size="lg" className="w-full" disabled={!product.purchasable}>
        Buy Now
      </Button>
    </form>
  );
}

/** Price, stock, Buy Now (or why not) and what the buyer gets. */
export function PurchasePanel({ product, answer }: { product: PublicProduct; answer?: PurchaseAnswer }) {
  const notice = stockNotice(product);
  const reason = !product.soldOut && !product.purchasable ? product.unavailableReason : null;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-3xl font-bold tracking-tight text-ink tabular-nums">
          {formatPrice(product.priceCents)}
        </p>
        {product.soldOut && (
          <Badge tone="danger" className="font-semibold">
            {SOLD_OUT_BADGE}
          </Badge>
        )}
      </div>
      {notice && <p className="text-sm font-medium text-amber-700">{notice}</p>}
      <div className="space-y-2">
        {answer?.buyRefused && (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
            {answer.buyRefused}
          </p>
        )}
        <BuyButton product={product} />
        {reason && (
          <p role="status" className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-muted">
            {reason}
          </p>
        )}
        <ResendLinkPanel productId={product.id} {...(answer?.resend ? { answer: answer.resend } : {})} />
      </div>
      <ul className="space-y-2 border-t border-line pt-5">
        <NoteItem icon={Download}>Instant download after payment.</NoteItem>
        <NoteItem icon={ShieldCheck}>Secure payment by card through Stripe.</NoteItem>
        <DownloadTermsItems />
      </ul>
    </div>
  );
}
