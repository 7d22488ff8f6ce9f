import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Storefront } from "../../../contracts/products";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { useI18n, useServerText } from "../../lib/i18n";
import { localPriceLabel, membershipPrice } from "../products/membership-price";
import { ProductCover } from "../products/product-cover";
import { useStoreCardBadge } from "../products/stock";

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
  const i18n = useI18n();
  const serverText = useServerText();
  const note = cardTaxNote(product, taxNote);
  const noteLine = note && <span className="block text-xs font-medium text-muted"> {serverText(note)}</span>;
  if (product.kind !== "membership") {
    return (
      <p className="min-w-0 text-lg font-bold text-ink tabular-nums">
        {localPriceLabel(i18n, product)}
        {noteLine}
      </p>
    );
  }
  const { from, cents } = membershipPrice(product);
  // The words smaller than the amount: each <small> of the message, keyed by its place.
  let part = 0;
  return (
    <p className="min-w-0 text-lg font-bold text-ink tabular-nums">
      {i18n.rich<ReactNode>(from ? "store.cardFromPerMonth" : "store.cardPerMonth", {
        price: i18n.money(cents, product.currency),
        small: (chunks) => (
          <span key={`small-${part++}`} className="text-sm font-medium text-muted">
            {chunks}
          </span>
        ),
      })}
      {noteLine}
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
  const { t } = useI18n();
  const badge = useStoreCardBadge()(product);
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
            <Link
              to={`/product/${product.id}${linkQuery}`}
              aria-label={t("store.viewDetailsOf", { title: product.title })}
            >
              {t("store.viewDetails")}
            </Link>
          </Button>
        </div>
      </div>
    </Card>
  );
}
