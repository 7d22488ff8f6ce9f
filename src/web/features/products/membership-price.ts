import type { Translator } from "../../../contracts/i18n/translator";
import { lowestMonthlyCents, type Tier } from "../../../contracts/memberships";
import { formatPrice } from "../../../contracts/money";
import { priceLabel } from "../../../contracts/products";

type Priced = {
  kind: "one_time" | "membership";
  priceMode: "fixed" | "flexible";
  priceCents: number;
  tiers: Pick<Tier, "monthlyPriceCents" | "closed">[];
};

/**
 * A membership's price as listings show it: "From $5.00/month" (its lowest monthly price among the
 * tiers open to new members) when it has several, "$5.00/month" with one.
 */
export function membershipPriceLabel(product: Omit<Priced, "kind" | "priceMode">): string {
  const { from, cents } = membershipPrice(product);
  return `${from ? "From " : ""}${formatPrice(cents)}/month`;
}

/** The parts of membershipPriceLabel, for a listing that sets them in different sizes. */
export function membershipPrice(product: Omit<Priced, "kind" | "priceMode">): {
  from: boolean;
  cents: number;
} {
  const open = product.tiers.filter((tier) => !tier.closed);
  return {
    from: open.length > 1,
    cents: open.length > 0 ? lowestMonthlyCents(open) : product.priceCents,
  };
}

/** The price a listing (store card, dashboard row) shows: a membership's by the month, else priceLabel's. */
export function listingPriceLabel(product: Priced): string {
  return product.kind === "membership" ? membershipPriceLabel(product) : priceLabel(product);
}

/**
 * The currency of every store's prices today (US dollars); a page formats them for its language with
 * it (`money(cents, PRICE_CURRENCY)`: "$19.99", "19,99 $", "US$ 19,99").
 */
export const PRICE_CURRENCY = "usd";

/** priceLabel in the page's language: "Free", "$5.00+" (pay what you want), "$19.99"; "Kostenlos", "Ab 5,00 $". */
export function localPriceLabel(
  i18n: Translator,
  product: { priceMode: "fixed" | "flexible"; priceCents: number },
): string {
  const price = i18n.money(product.priceCents, PRICE_CURRENCY);
  if (product.priceMode === "flexible") return i18n.t("price.flexible", { price });
  return product.priceCents === 0 ? i18n.t("price.free") : price;
}

/** membershipPriceLabel in the page's language: "From $5.00/month", "Ab 5,00 $/Monat". */
export function localMembershipPriceLabel(
  i18n: Translator,
  product: Omit<Priced, "kind" | "priceMode">,
): string {
  const { from, cents } = membershipPrice(product);
  const price = i18n.money(cents, PRICE_CURRENCY);
  return i18n.t(from ? "price.fromPerMonth" : "price.perMonth", { price });
}
