import { PRODUCT_LIMITS, type PublicProduct } from "../../../contracts/products";

type Stock = Pick<PublicProduct, "inventoryType" | "quantityAvailable" | "soldOut">;

export const SOLD_OUT_BADGE = "SOLD OUT";

/** Product page: 'Only {n} left in stock' whenever limited with a known quantity (product rules, States and transitions). */
export function stockNotice(product: Stock): string | null {
  if (product.soldOut || product.inventoryType !== "limited" || product.quantityAvailable === null)
    return null;
  return `Only ${product.quantityAvailable} left in stock`;
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
