import type { DiscountCodeStatus } from "../../../contracts/discounts";
import { percentOfCents } from "../../../contracts/money";
import { PRODUCT_LIMITS } from "../../../contracts/products";

export interface DiscountTerms {
  kind: "percent" | "amount";
  /** Percent off (1-100), or cents off. */
  value: number;
}

export interface DiscountedPrice {
  /** What the buyer pays. */
  priceCents: number;
  /** What the buyer saves: the original price minus priceCents. */
  discountCents: number;
}

/**
 * The price of a product after a code. Percentages are rounded to the nearest cent (a half cent in the
 * buyer's favour); an amount off never takes more than the price. Stripe charges no less than $0.50,
 * so a price the code would bring between $0 and $0.50 is raised to $0.50 (the buyer saves a little
 * less than the code says); a price brought to exactly $0 stays $0: a free purchase, which skips Stripe
 * (checkout/claim-free-product.ts).
 */
export function priceAfterDiscount(originalPriceCents: number, terms: DiscountTerms): DiscountedPrice {
  const off = terms.kind === "percent" ? percentOfCents(originalPriceCents, terms.value) : terms.value;
  const reduced = originalPriceCents - Math.min(off, originalPriceCents);
  const chargeable = Math.min(PRODUCT_LIMITS.minPriceCents, originalPriceCents);
  const priceCents = reduced === 0 ? 0 : Math.max(reduced, chargeable);
  return { priceCents, discountCents: originalPriceCents - priceCents };
}

export interface CodeStanding {
  paused: boolean;
  starts_at: Date | null;
  ends_at: Date | null;
  max_uses: number | null;
  uses_used: number;
  uses_reserved: number;
}

/**
 * Where a code stands at `now`. Uses held by open checkouts count as taken when `countHeldUses` (what a
 * buyer is told before Buy Now); the checkout itself takes a use with a conditional update instead.
 */
export function discountCodeStatus(
  code: CodeStanding,
  now: Date,
  { countHeldUses }: { countHeldUses: boolean },
): DiscountCodeStatus {
  if (code.paused) return "paused";
  if (code.ends_at && code.ends_at <= now) return "expired";
  if (code.starts_at && code.starts_at > now) return "scheduled";
  const taken = code.uses_used + (countHeldUses ? code.uses_reserved : 0);
  if (code.max_uses !== null && taken >= code.max_uses) return "used_up";
  return "active";
}
