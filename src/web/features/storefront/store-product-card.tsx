import { Link } from "react-router";
import { formatPrice } from "../../../contracts/money";
import { priceLabel, type Storefront } from "../../../contracts/products";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { membershipPrice } from "../products/membership-price";
import { ProductCover } from "../products/product-cover";
import { storeCardBadge } from "../products/stock";

type StoreProduct = Storefront["products"][number];

/** How wide a card's cover is in the store grid (one column, then two from 640 px, three from 1024 px). */
const STORE_CARD_COVER_SIZES = "(min-width: 1024px) 352px, (min-width: 640px) 50vw, 100vw";

/**
 * The store's tax note ("+ tax", "incl. VAT where applicable") where the product page shows it: beside
 * a price above zero, one-time or a membership's (a free product has no tax).
 */
export function cardTaxNote(product: StoreProduct, taxNote: string | null): string | null {
  return taxNote && (product.kind === "membership" || product.priceCents > 0) ? taxNote : null;
}

/**
 * The card's price, with the tax note under it (one paragraph, so it is read with the price); a
 * membership's by the month ("From $5.00/month", the words smaller than the amount).
 */
function CardPrice({ product, taxNote }: { product: StoreProduct; taxNote: string | null }) {
  if (product.kind !== "membership") {
    const note = cardTaxNote(product, taxNote);
    return (
      <p className="min-w-0 text-lg font-bold text-ink tabular-nums">
        {priceLabel(product)}
        {note && <span className="block text-xs font-medium text-muted"> {note}</span>}
      </p>
    );
  }
  const { from, cents } = membershipPrice(product);
  const note = cardTaxNote(product, taxNote);
  return (
    <p className="min-w-0 text-lg font-bold text-ink tabular-nums">
      {from && <span className="text-sm font-medium text-muted">From </span>}
      {formatPrice(cents)}
      <span className="text-sm font-medium text-muted">/month</span>
      {note && <span className="block text-xs font-medium text-muted"> {note}</span>}
    </p>
  );
}

/** A product in a store's grid; `priority` for the cards of its first row, which are on screen at once. */
export function StoreProductCard({
  product,
  taxNote = null,
  priority = false,
  linkQuery = "",
}: {
  product: StoreProduct;
  /** The store's note beside prices when it collects tax (Storefront's seller.taxNote). */
  taxNote?: string | null;
  priority?: boolean;
  /** Passed on to the product page: where the store's visitor came from (`?ref=…&utm_source=…`). */
  linkQuery?: string | undefined;
}) {
  const badge = storeCardBadge(product);
  return (
    <Card className="flex w-full flex-col overflow-hidden">
      <div className="relative">
        <ProductCover
          cover={product.cover}
          priority={priority}
          sizes={STORE_CARD_COVER_SIZES}
          title={product.title}
          className="aspect-[1200/630] w-full border-b border-line"
          iconClassName="size-10"
        />
        {badge && (
          <Badge tone={badge.tone} className="absolute top-3 right-3 font-semibold shadow-sm">
            {badge.label}
          </Badge>
        )}
      </div>
      <div className="flex flex-1 flex-col p-5">
        <h2 className="line-clamp-2 text-base font-semibold break-words text-ink">{product.title}</h2>
        {product.description && (
          <p className="mt-2 line-clamp-3 text-sm break-words text-muted">{product.description}</p>
        )}
        <div className="mt-auto flex items-center justify-between gap-3 pt-5">
          <CardPrice product={product} taxNote={taxNote} />
          <Button asChild size="sm">
            <Link to={`/product/${product.id}${linkQuery}`} aria-label={`View Details of ${product.title}`}>
              View Details
            </Link>
          </Button>
        </div>
      </div>
    </Card>
  );
}
