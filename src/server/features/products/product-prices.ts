import { type ExpressionBuilder, sql } from "kysely";
import type { CurrencyPrice } from "../../../contracts/currencies";
import type { Database } from "../../db/database";
import type { DB } from "../../db/schema";

/**
 * A product's fixed prices in currencies other than its store's (docs/money.md): the buyer whose
 * currency has one pays exactly that (a pay-what-you-want product's minimum there); the store currency's
 * price stays `products.price_cents`. The list is written whole, inside the product's transaction.
 */

/** The store's currency and the product's other prices, by currency: two columns of a product read. */
export function currencyColumns(_eb: ExpressionBuilder<DB, "products">) {
  return [
    sql<string>`(select p.store_currency from profiles p where p.id = products.user_id)`.as("store_currency"),
    sql<CurrencyPrice[] | null>`(
      select json_agg(json_build_object('currency', pp.currency, 'priceCents', pp.amount_cents) order by pp.currency)
      from product_prices pp where pp.product_id = products.id
    )`.as("prices"),
  ];
}

/** Replaces the product's other-currency prices with `prices`, in the caller's transaction. */
export async function writeOtherPrices(
  trx: Database,
  sellerId: string,
  productId: string,
  prices: readonly CurrencyPrice[],
): Promise<void> {
  await trx.deleteFrom("product_prices").where("product_id", "=", productId).execute();
  if (prices.length === 0) return;
  await trx
    .insertInto("product_prices")
    .values(
      prices.map((price) => ({
        product_id: productId,
        seller_id: sellerId,
        currency: price.currency,
        amount_cents: price.priceCents,
      })),
    )
    .execute();
}

/** The amount a product costs in `currency`: the store's price, a fixed other price, or none. */
export function priceIn(
  product: { currency: string; priceCents: number; prices: readonly CurrencyPrice[] },
  currency: string,
): number | undefined {
  if (currency === product.currency) return product.priceCents;
  return product.prices.find((price) => price.currency === currency)?.priceCents;
}
