import { PRODUCT_LIMITS, type PublicProduct } from "../../../contracts/products";
import { useI18n } from "../../lib/i18n";

type Stock = Pick<PublicProduct, "inventoryType" | "quantityAvailable" | "soldOut">;

export const SOLD_OUT_BADGE = "SOLD OUT";

/** Product page: 'Only {n} left in stock' whenever limited with a known quantity (product rules, States and transitions). */
export function stockNotice(product: Stock): string | null {
  if (product.soldOut || product.inventoryType !== "limited" || product.quantityAvailable === null)
    return null;
  return `Only ${product.quantityAvailable} left in stock`;
}

/** stockNotice in the page's language (the API's stockLabel keeps stockNotice's English). */
export function useStockNotice(): (product: Stock) => string | null {
  const { t } = useI18n();
  return (product) =>
    stockNotice(product) === null ? null : t("purchase.stockLeft", { count: product.quantityAvailable ?? 0 });
}

/** storeCardBadge in the page's language. */
export function useStoreCardBadge(): (product: Stock) => ReturnType<typeof storeCardBadge> {
  const { t } = useI18n();
  return (product) => {
    const badge = storeCardBadge(product);
    if (!badge) return null;
    return {
      tone: badge.tone,
      label: product.soldOut
        ? t("purchase.soldOutBadge")
        : t("store.left", { count: product.quantityAvailable ?? 0 }),
    };
  };
}

/** Store card: 'SOLD OUT', or '{n} left' at 5 or fewer. */
export function storeCardBadge(product: Stock): { label: string; tone: "danger" | "warning" } | null {
  if (product.soldOut) return { label: SOLD_OUT_BADGE, tone: "danger" };
  const quantity = product.quantityAvailable;
  if (product.inventoryType !== "limited" || quantity === null) return null;
  return quantity <= PRODUCT_LIMITS.lowStockBadgeAt ? { label: `${quantity} left`, tone: "warning" } : null;
}

/** Dashboard row: how many the seller has left to sell. */
export function sellerStockLabel(
  product: Pick<PublicProduct, "inventoryType" | "quantityAvailable">,
): string {
  if (product.inventoryType !== "limited" || product.quantityAvailable === null) return "Unlimited";
  return product.quantityAvailable <= 0 ? "Sold out" : `${product.quantityAvailable} in stock`;
}
