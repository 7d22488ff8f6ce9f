import { type ExpressionBuilder, sql } from "kysely";
import type { CurrencyPrice } from "../../../contracts/currencies";
import { lowestMonthlyCents, type Tier } from "../../../contracts/memberships";
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

/**
 * A public product as a buyer in `currency` sees and buys it: its price there (a fixed other price is
 * also a pay-what-you-want minimum and suggestion there) and that currency. A membership is in it when a
 * tier is: each tier priced in it shows its price there, the others the store's (tierInCurrency), and the
 * product's own price ("From …") is the lowest monthly price among the tiers shown in it. The store's own
 * currency, or one neither it nor a tier has a price in, leaves it as it is.
 */
export function productInCurrency<P extends PricedInCurrencies>(product: P, currency: string): P {
  if (currency === product.currency) return product;
  const price = product.prices.find((other) => other.currency === currency);
  if (!price) {
    const tiers = product.tiers.map((tier) => tierInCurrency(tier, currency));
    const shown = tiers.filter((tier) => tier.currency === currency);
    if (shown.length === 0) return product;
    return { ...product, currency, tiers, priceCents: lowestMonthlyCents(shown) };
  }
  return {
    ...product,
    currency,
    priceCents: price.priceCents,
    suggestedPriceCents: product.suggestedPriceCents === null ? null : price.priceCents,
    // The other prices as this buyer sees them: the store's among them, the one shown out.
    prices: [
      { currency: product.currency, priceCents: product.priceCents },
      ...product.prices.filter((other) => other.currency !== currency),
    ],
  };
}

/** A tier as a buyer in `currency` sees it: its fixed price there when it has one, else as it is. */
export function tierInCurrency<T extends TierPricing>(tier: T, currency: string): T {
  if (currency === tier.currency) return tier;
  const price = tier.prices.find((other) => other.currency === currency);
  if (!price) return tier;
  return {
    ...tier,
    currency,
    monthlyPriceCents: price.monthlyPriceCents,
    yearlyPriceCents: price.yearlyPriceCents,
    prices: [
      {
        currency: tier.currency,
        monthlyPriceCents: tier.monthlyPriceCents,
        yearlyPriceCents: tier.yearlyPriceCents,
      },
      ...tier.prices.filter((other) => other.currency !== currency),
    ],
  };
}

type TierPricing = Pick<Tier, "currency" | "monthlyPriceCents" | "yearlyPriceCents" | "closed" | "prices">;

interface PricedInCurrencies {
  currency: string;
  priceCents: number;
  suggestedPriceCents: number | null;
  prices: readonly CurrencyPrice[];
  tiers: readonly TierPricing[];
}
