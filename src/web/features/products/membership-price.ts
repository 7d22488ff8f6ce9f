import type { Translator } from "../../../contracts/i18n/translator";
import { lowestMonthlyCents, type Tier } from "../../../contracts/memberships";
import { formatMoney } from "../../../contracts/money";

/** A product's prices: amounts of its `currency` (the store currency). */
type Priced = {
  kind: "one_time" | "membership";
  priceMode: "fixed" | "flexible";
  priceCents: number;
  currency: string;
  tiers: (Pick<Tier, "monthlyPriceCents" | "closed"> & Partial<Pick<Tier, "currency">>)[];
};

/**
 * A membership's price as listings show it: "From $5.00/month" (its lowest monthly price among the
 * tiers open to new members) when it has several, "$5.00/month" with one; in the product's currency.
 */
export function membershipPriceLabel(product: Omit<Priced, "kind" | "priceMode">): string {
  const { from, cents } = membershipPrice(product);
  return `${from ? "From " : ""}${formatMoney(cents, product.currency)}/month`;
}

/** The price as the dashboard shows it: "Free", "$5.00+" for pay what you want, else "$19.99" ("¥1,500"). */
export function priceLabel(product: Omit<Priced, "kind" | "tiers">): string {
  const price = formatMoney(product.priceCents, product.currency);
  if (product.priceMode === "flexible") return `${price}+`;
  return product.priceCents === 0 ? "Free" : price;
}

/** The parts of membershipPriceLabel, for a listing that sets them in different sizes. */
export function membershipPrice(product: Omit<Priced, "kind" | "priceMode">): {
  from: boolean;
  cents: number;
} {
  // On a buyer's page in another currency, only the tiers priced in it (the others show the store's).
  const open = product.tiers.filter((tier) => !tier.closed);
  const shown = open.filter((tier) => tier.currency === undefined || tier.currency === product.currency);
  return {
    from: open.length > 1,
    cents: shown.length > 0 ? lowestMonthlyCents(shown) : product.priceCents,
  };
}

/** The price a listing (store card, dashboard row) shows: a membership's by the month, else priceLabel's. */
export function listingPriceLabel(product: Priced): string {
  return product.kind === "membership" ? membershipPriceLabel(product) : priceLabel(product);
}

/**
 * priceLabel in the page's language, in the product's currency (`money(cents, product.currency)`):
 * "Free", "$5.00+" (pay what you want), "$19.99"; "Kostenlos", "Ab 5,00 $", "1.500 ¥".
 */
export function localPriceLabel(
  i18n: Translator,
  product: { priceMode: "fixed" | "flexible"; priceCents: number; currency: string },
): string {
  const price = i18n.money(product.priceCents, product.currency);
  if (product.priceMode === "flexible") return i18n.t("price.flexible", { price });
  return product.priceCents === 0 ? i18n.t("price.free") : price;
}

/** membershipPriceLabel in the page's language: "From $5.00/month", "Ab 5,00 $/Monat". */
export function localMembershipPriceLabel(
  i18n: Translator,
  product: Omit<Priced, "kind" | "priceMode">,
): string {
  const { from, cents } = membershipPrice(product);
  const price = i18n.money(cents, product.currency);
  return i18n.t(from ? "price.fromPerMonth" : "price.perMonth", { price });
}
