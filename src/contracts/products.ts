import { z } from "zod";

export const PRODUCT_LIMITS = {
  titleMax: 200,
  descriptionMax: 5000,
  /** Stripe's smallest card charge in USD. */
  minPriceCents: 50,
  /** Stripe's largest card charge in USD. */
  maxPriceCents: 99_999_999,
  maxQuantity: 1_000_000,
  recentProducts: 5,
  /** '{n} left' badge on store cards at this many or fewer. */
  lowStockBadgeAt: 5,
} as const;

export const PRODUCT_MESSAGES = {
  missingFieldsTitle: "Missing fields",
  missingFields: "Please fill in all required fields",
  createFailedTitle: "Failed to create product",
  createdTitle: "Product created!",
  created: "Your product is now live and ready for sale.",
  deletedTitle: "Product deleted",
  deleted: "Product has been removed successfully",
  deleteConfirmTitle: "Delete Product",
  deleteConfirm:
    "Are you sure you want to delete this product? This action cannot be undone. The product files will be permanently removed.",
  linkCopied: "Link copied!",
  storeLinkCopiedTitle: "Store link copied!",
  storeLinkCopied: "Share this link with your customers",
  invalidPrice: "Price must be a number with at most 2 decimals, like 19.99",
  priceTooLow: "Price must be at least $0.50",
  priceTooHigh: "Price must be at most $999,999.99",
  quantityInvalid: "Available quantity must be a whole number of 0 or more",
  titleTooLong: `Title must be under ${PRODUCT_LIMITS.titleMax} characters`,
  descriptionTooLong: `Description must be under ${PRODUCT_LIMITS.descriptionMax} characters`,
  notFound: "Product not found",
  setupRequired: "Subscribe and connect Stripe before creating products.",
} as const;

/** "19.99" → 1999. Parsed as a decimal string, never through floating point. Undefined when not a price. */
export function parsePriceToCents(input: string | number): number | undefined {
  const text = typeof input === "number" ? String(input) : input.trim();
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

// Made once: toLocaleString builds a new formatter on every call, a measurable cost on a 24-product store page.
const DOLLARS = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 1999 → "$19.99": the spec shows prices with 2 decimals in dollars. */
export const formatPrice = (cents: number): string => `$${DOLLARS.format(cents / 100)}`;

const requiredText = z.string().trim().min(1, PRODUCT_MESSAGES.missingFields);

export const createProductSchema = z
  .object({
    title: requiredText.max(PRODUCT_LIMITS.titleMax, PRODUCT_MESSAGES.titleTooLong),
    description: z
      .string()
      .trim()
      .max(PRODUCT_LIMITS.descriptionMax, PRODUCT_MESSAGES.descriptionTooLong)
      .default(""),
    price: z.union([z.string(), z.number()]),
    inventoryType: z.enum(["unlimited", "limited"]),
    quantityAvailable: z.union([z.string(), z.number()]).nullish(),
    fileUploadId: requiredText,
    coverUploadId: z.string().min(1).nullish(),
  })
  .transform((input, ctx) => {
    const priceText = String(input.price).trim();
    if (priceText === "") {
      ctx.addIssue({ code: "custom", message: PRODUCT_MESSAGES.missingFields, path: ["price"] });
      return z.NEVER;
    }
    const priceCents = parsePriceToCents(priceText);
    if (priceCents === undefined) {
      ctx.addIssue({ code: "custom", message: PRODUCT_MESSAGES.invalidPrice, path: ["price"] });
      return z.NEVER;
    }
    if (priceCents < PRODUCT_LIMITS.minPriceCents) {
      ctx.addIssue({ code: "custom", message: PRODUCT_MESSAGES.priceTooLow, path: ["price"] });
      return z.NEVER;
    }
    if (priceCents > PRODUCT_LIMITS.maxPriceCents) {
      ctx.addIssue({ code: "custom", message: PRODUCT_MESSAGES.priceTooHigh, path: ["price"] });
      return z.NEVER;
    }
    let quantityAvailable: number | null = null;
    if (input.inventoryType === "limited") {
      const text = String(input.quantityAvailable ?? "").trim();
      if (text === "") {
        ctx.addIssue({
          code: "custom",
          message: PRODUCT_MESSAGES.missingFields,
          path: ["quantityAvailable"],
        });
        return z.NEVER;
      }
      if (!/^\d+$/.test(text) || Number(text) > PRODUCT_LIMITS.maxQuantity) {
        ctx.addIssue({
          code: "custom",
          message: PRODUCT_MESSAGES.quantityInvalid,
          path: ["quantityAvailable"],
        });
        return z.NEVER;
      }
      quantityAvailable = Number(text);
    }
    return {
      title: input.title,
      description: input.description,
      priceCents,
      inventoryType: input.inventoryType,
      quantityAvailable,
      fileUploadId: input.fileUploadId,
      coverUploadId: input.coverUploadId ?? null,
    };
  });
export type CreateProductInput = z.input<typeof createProductSchema>;
export type NewProduct = z.output<typeof createProductSchema>;

/**
 * A cover as an `<img>` wants it: `src` and `width`/`height` are its largest size (the size fixes the
 * box before the image loads, so nothing shifts), `srcSet` offers every size for the browser to choose.
 */
export const coverImageSchema = z.object({
  src: z.string(),
  srcSet: z.string(),
  width: z.number(),
  height: z.number(),
  alt: z.string(),
});
export type CoverImage = z.infer<typeof coverImageSchema>;

/** What the seller and the public both see of a product. */
const productCoreSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  priceCents: z.number(),
  inventoryType: z.enum(["unlimited", "limited"]),
  quantityAvailable: z.number().nullable(),
  fileSizeBytes: z.number().nullable(),
  fileType: z.string().nullable(),
  coverImageUrl: z.string().nullable(),
  coverThumbnailUrl: z.string().nullable(),
  /** Null when the product has no cover (pages show a placeholder). */
  cover: coverImageSchema.nullable(),
  createdAt: z.string(),
});

export const sellerProductSchema = productCoreSchema.extend({ isActive: z.boolean(), fileName: z.string() });
export type SellerProduct = z.infer<typeof sellerProductSchema>;
export const sellerProductListSchema = z.object({
  products: z.array(sellerProductSchema),
  total: z.number(),
});

export const sellerBlockSchema = z.object({
  id: z.string(),
  storeName: z.string().nullable(),
  pictureUrl: z.string().nullable(),
});

/** What anyone may see of a product: no file location, no seller internals. */
export const publicProductSchema = productCoreSchema.extend({
  soldOut: z.boolean(),
  /** Buy Now works: the seller may sell and the product is not sold out. */
  purchasable: z.boolean(),
  /** Why Buy Now is off when it is, in words a buyer understands. */
  unavailableReason: z.string().nullable(),
  seller: sellerBlockSchema,
});
export type PublicProduct = z.infer<typeof publicProductSchema>;

export const storefrontSchema = z.object({
  seller: sellerBlockSchema.extend({ tagline: z.string().nullable(), description: z.string().nullable() }),
  products: z.array(publicProductSchema.omit({ seller: true })),
});
export type Storefront = z.infer<typeof storefrontSchema>;

export const STORE_FALLBACK_NAME = "Digital Store";
export const PURCHASE_UNAVAILABLE = {
  soldOut: "Sold Out",
  sellerPaused: "This creator isn't accepting purchases right now. Check back soon.",
} as const;

export const dashboardStatsSchema = z.object({
  activeProducts: z.number(),
  totalProducts: z.number(),
  storeViews30d: z.number(),
  storeViewsAllTime: z.number(),
  storageUsedBytes: z.number(),
  storageQuotaBytes: z.number(),
  /** Completed orders (refunded ones are taken back). */
  unitsSold: z.number(),
  totalRevenueCents: z.number(),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;
