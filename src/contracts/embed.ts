import { z } from "zod";

/**
 * The embeddable buy button (docs/embed.md): `/embed.js` turns links to products into Buy buttons and
 * asks `GET /api/embed/products?ids=…` once for all of them. The script imports only types from here:
 * zod stays out of it.
 */
export const EMBED_LIMITS = {
  /** Buttons one request prices; a page with more asks again for the rest. */
  maxIdsPerRequest: 24,
  /** Product ids are short opaque strings. */
  maxIdLength: 64,
  /** Budget of the script, gzip (scripts/check-public-budget.ts). */
  scriptBudgetBytes: 10 * 1024,
} as const;

export const EMBED_MESSAGES = {
  idsRequired: "Give the product ids to price: ?ids=id1,id2",
  idsInvalid: "A product id is made of letters, digits, '-' and '_' only",
  tooManyIds: `At most ${EMBED_LIMITS.maxIdsPerRequest} products per request`,
} as const;

const productId = z
  .string()
  .min(1, EMBED_MESSAGES.idsInvalid)
  .max(EMBED_LIMITS.maxIdLength, EMBED_MESSAGES.idsInvalid)
  .regex(/^[A-Za-z0-9_-]+$/, EMBED_MESSAGES.idsInvalid);

/** `ids` is comma separated; repeated ids count once. */
export const embedProductsQuerySchema = z.object({
  ids: z
    .string({ error: EMBED_MESSAGES.idsRequired })
    .trim()
    .min(1, EMBED_MESSAGES.idsRequired)
    .transform((value) => [...new Set(value.split(",").map((id) => id.trim()))])
    .pipe(z.array(productId).max(EMBED_LIMITS.maxIdsPerRequest, EMBED_MESSAGES.tooManyIds)),
});

/**
 * What a button shows. `available`: Buy opens the product; `soldOut`; `unavailable`: the seller cannot
 * take payments now; `missing`: no such product, deleted, or its store is no longer public.
 */
export const embedProductStatusSchema = z.enum(["available", "soldOut", "unavailable", "missing"]);
export type EmbedProductStatus = z.infer<typeof embedProductStatusSchema>;

export const embedProductSchema = z.object({
  id: z.string(),
  status: embedProductStatusSchema,
  /** Null when missing. */
  title: z.string().nullable(),
  priceCents: z.number().int().nullable(),
  priceMode: z.enum(["fixed", "flexible"]).nullable(),
  /** The currency of priceCents: the buyer's when the product has a fixed price in it, else the store's. */
  currency: z.string().nullable(),
  /** As the product page writes it for this buyer: "$12.00", "$5.00+", "Free"; "18,00 €", "Kostenlos". */
  priceLabel: z.string().nullable(),
  /** "Only 3 left in stock", "Sold Out", or null when stock is unlimited or nothing is for sale. */
  stockLabel: z.string().nullable(),
  /** Why it can't be bought ("Sold Out", "Not for sale right now", "No longer available"); null when it can. */
  statusLabel: z.string().nullable(),
});
export type EmbedProduct = z.infer<typeof embedProductSchema>;

/** One entry per asked id, in the order asked. */
export const embedProductsSchema = z.object({
  products: z.array(embedProductSchema),
  /** The button's words when the link shows only its address: "Buy now", "Jetzt kaufen". */
  buyLabel: z.string(),
});
export type EmbedProducts = z.infer<typeof embedProductsSchema>;
