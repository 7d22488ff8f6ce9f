import { sql } from "kysely";
import {
  DISCOUNT_LIMITS,
  DISCOUNT_REFUSAL_MESSAGES,
  type DiscountCodeStatus,
  type DiscountRefusal,
  normalizeDiscountCode,
  type ProductPrice,
} from "../../../contracts/discounts";
import type { PublicProduct } from "../../../contracts/products";
import type { Database } from "../../db/database";
import { getPublicProduct } from "../products";
import type { CodeTry } from "./code-tries";
import { type DiscountedPrice, discountCodeStatus, priceAfterDiscount } from "./discount-price";

/** The product a code is tried on: whose it is and its price now, in the currency the buyer pays in. */
export interface PricedProduct {
  id: string;
  sellerId: string;
  priceCents: number;
  currency: string;
}

export type DiscountEvaluation =
  | ({
      ok: true;
      codeId: string;
      code: string;
      originalPriceCents: number;
      /** Whether the code has a maximum of uses: then a checkout's hold of one is scarce, and short. */
      limitedUses: boolean;
    } & DiscountedPrice)
  | { ok: false; code: string; reason: DiscountRefusal; message: string };

const REFUSAL_OF_STATUS: Record<Exclude<DiscountCodeStatus, "active">, DiscountRefusal> = {
  paused: "paused",
  scheduled: "not_started",
  expired: "expired",
  used_up: "used_up",
};

const refused = (code: string, reason: DiscountRefusal): DiscountEvaluation => ({
  ok: false,
  code,
  reason,
  message: DISCOUNT_REFUSAL_MESSAGES[reason],
});

/**
 * A code typed by a buyer, tried on one of the seller's products: the new price, or why it does not
 * apply (unknown, not started, expired, used up, paused, not for this product). Codes are the seller's
 * own: another seller's code is unknown here. Only a code counted against its network's limit is
 * evaluated (code-tries.ts).
 */
export async function evaluateDiscountCode(
  db: Database,
  product: PricedProduct,
  typed: CodeTry,
  now: Date,
  options: { countHeldUses: boolean },
): Promise<DiscountEvaluation> {
  const code = normalizeDiscountCode(typed.typed);
  if (code.length > DISCOUNT_LIMITS.codeMaxLength || !/^[A-Z0-9_-]+$/.test(code))
    return refused(code, "unknown");
  const row = await db
    .selectFrom("discount_codes")
    .select([
      "id",
      "code",
      "kind",
      "value",
      "paused",
      "starts_at",
      "ends_at",
      "max_uses",
      "uses_used",
      "uses_reserved",
      "currency",
    ])
    .select((eb) =>
      eb
        .or([
          eb("all_products", "=", true),
          eb.exists(
            eb
              .selectFrom("discount_code_products")
              .select(sql`1`.as("one"))
              .whereRef("discount_code_products.discount_code_id", "=", "discount_codes.id")
              .where("discount_code_products.product_id", "=", product.id),
          ),
        ])
        .as("applies"),
    )
    .where("seller_id", "=", product.sellerId)
    .where("code", "=", code)
    .executeTakeFirst();
  if (!row) return refused(code, "unknown");
  const status = discountCodeStatus(row, now, options);
  if (status !== "active") return refused(row.code, REFUSAL_OF_STATUS[status]);
  if (!row.applies) return refused(row.code, "not_for_product");
  // An amount off is an amount of one currency: it lowers no price in another.
  if (row.kind === "amount" && row.currency !== product.currency) return refused(row.code, "other_currency");
  return {
    ok: true,
    codeId: row.id,
    code: row.code,
    originalPriceCents: product.priceCents,
    limitedUses: row.max_uses !== null,
    ...priceAfterDiscount(product.priceCents, row),
  };
}

/**
 * A public product's price with a code, for the product page (`?code=` or "Have a discount code?").
 * Uses held by open checkouts count as taken: a buyer is never shown a price no use is left for. A
 * flexible price's code applies to its minimum: priceCents is the lowest amount the buyer may pay.
 */
export async function quoteProductPrice(
  db: Database,
  productId: string,
  typed: CodeTry | undefined,
  now: Date,
): Promise<ProductPrice> {
  return priceWithCode(db, await getPublicProduct(db, productId, now), typed, now);
}

/** quoteProductPrice for a product already read. */
export async function priceWithCode(
  db: Database,
  product: PublicProduct,
  typed: CodeTry | undefined,
  now: Date,
): Promise<ProductPrice> {
  const full: ProductPrice = {
    productId: product.id,
    originalPriceCents: product.priceCents,
    priceCents: product.priceCents,
    discountCents: 0,
    code: null,
    refusal: null,
  };
  if (!typed) return full;
  const priced = {
    id: product.id,
    sellerId: product.seller.id,
    priceCents: product.priceCents,
    currency: product.currency,
  };
  const discount = await evaluateDiscountCode(db, priced, typed, now, { countHeldUses: true });
  if (!discount.ok)
    return { ...full, code: discount.code, refusal: { reason: discount.reason, message: discount.message } };
  return {
    ...full,
    code: discount.code,
    priceCents: discount.priceCents,
    discountCents: discount.discountCents,
  };
}
