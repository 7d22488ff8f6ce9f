import { z } from "zod";
import { orderStatusSchema, SALES_PAGE_SIZE, saleSchema } from "./orders";
import { sellerProductListSchema } from "./products";

/** The seller REST API (`/api/v1`): its query shapes and the answers it adds to the dashboard's. */
export const SELLER_API_MESSAGES = {
  limit: "limit must be a whole number from 1 to 100",
  date: "Dates must look like 2026-01-31 or 2026-01-31T12:00:00Z",
  range: "from must be before to",
} as const;

const limit = z.coerce
  .number({ error: SELLER_API_MESSAGES.limit })
  .int(SELLER_API_MESSAGES.limit)
  .min(1, SELLER_API_MESSAGES.limit)
  .max(100, SELLER_API_MESSAGES.limit)
  .default(SALES_PAGE_SIZE)
  .meta({ description: "How many to answer, 1 to 100." });
const cursor = z
  .string()
  .max(200)
  .optional()
  .meta({ description: "`nextCursor` of the previous page: answers the next (older) items." });

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:\d{2})$/;
/** 2026-01-31 (midnight UTC) or an ISO 8601 date-time with its offset. */
export function parseApiDate(text: string): Date | undefined {
  if (!DATE_ONLY.test(text) && !DATE_TIME.test(text)) return undefined;
  // A day that does not exist (2026-02-30) would otherwise roll over into the next month.
  const day = text.slice(0, 10);
  const midnight = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(midnight.getTime()) || midnight.toISOString().slice(0, 10) !== day) return undefined;
  const date = new Date(DATE_ONLY.test(text) ? `${day}T00:00:00Z` : text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
const apiDate = (description: string) =>
  z
    .string()
    .max(40, SELLER_API_MESSAGES.date)
    .refine((text) => parseApiDate(text) !== undefined, SELLER_API_MESSAGES.date)
    .optional()
    .meta({ description, examples: ["2026-01-31", "2026-01-31T12:00:00Z"] });

export const apiIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

export const apiProductListQuerySchema = z.object({ limit, before: cursor });
export const apiProductListSchema = sellerProductListSchema.extend({
  nextCursor: z
    .string()
    .nullable()
    .meta({ description: "Pass as `before` for the next page; null on the last page." }),
});

export const apiSalesQuerySchema = z
  .object({
    limit,
    before: cursor,
    productId: z.string().min(1).max(64).optional().meta({ description: "Only sales of this product." }),
    from: apiDate("Only sales made at or after this time (a date alone is midnight UTC)."),
    to: apiDate("Only sales made before this time (a date alone is midnight UTC)."),
  })
  .refine(
    (query) => {
      const [from, to] = [query.from, query.to].map((text) => (text ? parseApiDate(text) : undefined));
      return !from || !to || from < to;
    },
    { message: SELLER_API_MESSAGES.range, path: ["to"] },
  );
export type ApiSalesQuery = z.infer<typeof apiSalesQuerySchema>;

/** One sale as the API shows it: the dashboard's row plus what a tool needs to act on it. */
export const apiSaleSchema = saleSchema.extend({
  status: orderStatusSchema,
  /** Null once the product was deleted (the sale keeps its title). */
  productId: z.string().nullable(),
  currency: z.string(),
  refundedAt: z.string().nullable(),
  /** The buyer's downloads count until then. */
  downloadWindowEndsAt: z.string(),
  /** A membership's paid period: the membership (GET /api/v1/memberships/{id}); null for a one-time sale. */
  membershipId: z.string().nullable(),
});
export type ApiSale = z.infer<typeof apiSaleSchema>;

export const apiSalePageSchema = z.object({
  sales: z.array(apiSaleSchema),
  nextCursor: z.string().nullable().meta({
    description: "Pass as `before` (with the same filters) for the next page; null on the last page.",
  }),
});
export type ApiSalePage = z.infer<typeof apiSalePageSchema>;
