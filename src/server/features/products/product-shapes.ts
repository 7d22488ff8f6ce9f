import type { Selectable } from "kysely";
import type { CurrencyPrice } from "../../../contracts/currencies";
import type { Tier } from "../../../contracts/memberships";
import type { SellerProductFile } from "../../../contracts/product-files";
import {
  type CoverImage,
  PURCHASE_UNAVAILABLE,
  type PublicProduct,
  type SellerProduct,
  type SellerProductDetail,
} from "../../../contracts/products";
import { COVER_IMAGE_SIZE } from "../../../contracts/uploads";
import type { ProductTable } from "../../db/schema";

/** A product with its first file's columns (products/product-files.ts: productRows). */
export type ProductRow = Selectable<ProductTable> & {
  file_name: string | null;
  file_size_bytes: number | null;
  file_type: string | null;
  file_count: number | string | bigint | null;
  /** A membership's tiers not removed, in order (membership-tiers.ts); null for a one-time product. */
  tiers: Tier[] | null;
  /** The store currency and the fixed prices in others (product-prices.ts). */
  store_currency: string;
  prices: CurrencyPrice[] | null;
};

/** The thumbnail every cover got before covers had sizes. */
const LEGACY_THUMBNAIL_SIZE = { width: 600, height: 315 } as const;

export const isSoldOut = (product: Pick<ProductRow, "inventory_type" | "quantity_available">): boolean =>
  product.inventory_type === "limited" && (product.quantity_available ?? 0) <= 0;

/**
 * The cover's `<img>` attributes. A cover made before covers had sizes has its 600x315 thumbnail and
 * its 1200x630 Open Graph image: those are its sizes.
 */
function coverOf(row: ProductRow): CoverImage | null {
  if (!row.cover_image_url) return null;
  const variants = row.cover_variants?.length
    ? row.cover_variants
    : [
        ...(row.cover_thumbnail_url ? [{ url: row.cover_thumbnail_url, ...LEGACY_THUMBNAIL_SIZE }] : []),
        { url: row.cover_image_url, ...COVER_IMAGE_SIZE },
      ];
  const largest = variants.reduce((wider, variant) => (variant.width > wider.width ? variant : wider));
  return {
    src: largest.url,
    srcSet: variants.map((variant) => `${variant.url} ${variant.width}w`).join(", "),
    width: largest.width,
    height: largest.height,
    alt: `Cover of ${row.title}`,
  };
}

/** The fields the seller and the public share. */
function productCore(row: ProductRow) {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    priceCents: row.price_cents,
    priceMode: row.price_mode,
    suggestedPriceCents: row.suggested_price_cents,
    inventoryType: row.inventory_type,
    quantityAvailable: row.quantity_available,
    fileSizeBytes: row.file_size_bytes === null ? null : Number(row.file_size_bytes),
    fileType: row.file_type,
    fileCount: Number(row.file_count ?? 0),
    coverImageUrl: row.cover_image_url,
    coverThumbnailUrl: row.cover_thumbnail_url,
    cover: coverOf(row),
    createdAt: row.created_at.toISOString(),
    kind: row.kind,
    tiers: row.tiers ?? [],
    currency: row.store_currency,
    prices: row.prices ?? [],
  };
}

export function toSellerProduct(row: ProductRow): SellerProduct {
  return {
    ...productCore(row),
    isActive: row.is_active,
    fileName: row.file_name ?? "",
    issueLicenseKeys: row.issue_license_keys,
    stampPdfs: row.stamp_pdfs,
    taxCategory: row.tax_category,
  };
}

/** Units taken from a limited stock: paid for (sold) and in an open checkout (held). */
export interface UnitsTaken {
  sold: number;
  held: number;
}

export function toSellerProductDetail(
  row: ProductRow,
  taken: UnitsTaken,
  files: SellerProductFile[],
): SellerProductDetail {
  return { ...toSellerProduct(row), unitsSold: taken.sold, unitsHeld: taken.held, files };
}

/** The public face of a product; `sellerCanSell` comes from the seller's plan and payouts. */
export function toPublicProduct(row: ProductRow, sellerCanSell: boolean): Omit<PublicProduct, "seller"> {
  const soldOut = isSoldOut(row);
  const purchasable = sellerCanSell && !soldOut;
  const core = productCore(row);
  return {
    ...core,
    // New members can join only the open tiers; members of a closed one see theirs in their library.
    tiers: core.tiers.filter((tier) => !tier.closed),
    soldOut,
    purchasable,
    unavailableReason: purchasable
      ? null
      : soldOut
        ? PURCHASE_UNAVAILABLE.soldOut
        : PURCHASE_UNAVAILABLE.sellerPaused,
  };
}
