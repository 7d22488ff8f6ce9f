import type { Selectable } from "kysely";
import { PURCHASE_UNAVAILABLE, type PublicProduct, type SellerProduct } from "../../../contracts/products";
import type { ProductTable } from "../../db/schema";

export type ProductRow = Selectable<ProductTable>;

export const isSoldOut = (product: Pick<ProductRow, "inventory_type" | "quantity_available">): boolean =>
  product.inventory_type === "limited" && (product.quantity_available ?? 0) <= 0;

/** The fields the seller and the public share. */
function productCore(row: ProductRow) {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    priceCents: row.price_cents,
    inventoryType: row.inventory_type,
    quantityAvailable: row.quantity_available,
    fileSizeBytes: row.file_size_bytes,
    fileType: row.file_type,
    coverImageUrl: row.cover_image_url,
    coverThumbnailUrl: row.cover_thumbnail_url,
    createdAt: row.created_at.toISOString(),
  };
}

export function toSellerProduct(row: ProductRow): SellerProduct {
  return { ...productCore(row), isActive: row.is_active, fileName: row.file_name };
}

/** The public face of a product; `sellerCanSell` comes from the seller's plan and payouts. */
export function toPublicProduct(row: ProductRow, sellerCanSell: boolean): Omit<PublicProduct, "seller"> {
  const soldOut = isSoldOut(row);
  const purchasable = sellerCanSell && !soldOut;
  return {
    ...productCore(row),
    soldOut,
    purchasable,
    unavailableReason: purchasable
      ? null
      : soldOut
        ? PURCHASE_UNAVAILABLE.soldOut
        : PURCHASE_UNAVAILABLE.sellerPaused,
  };
}
