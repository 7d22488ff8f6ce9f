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
