import { checkBuyerAmount, type PublicProduct } from "../../../contracts/products";
import type { BusinessBuyer } from "../../../contracts/tax";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import type { CodeTry } from "../discounts";
import { type DiscountEvaluation, evaluateDiscountCode } from "../discounts";

/**
 * What the buyer chose on the product page: a discount code (counted against its network's limit of
 * code tries), and an amount for a flexible price.
 */
export interface BuyerChoice {
  code?: CodeTry | undefined;
  amount?: string | undefined;
  /** Buying as a business: the name and VAT number for the invoice (checked before Checkout). */
  business?: BusinessBuyer | undefined;
  /** The currency the page showed the price in (its form's `currency`); else the buyer's request decides. */
  currency?: string | undefined;
}

export interface PurchasePrice {
  /** What the buyer pays: 0 is a free purchase, which skips Stripe. */
  amountCents: number;
  discount?: Extract<DiscountEvaluation, { ok: true }>;
}

/**
 * The price of one purchase, decided here, never taken from the page: the product's price, lowered by
 * the buyer's code. A pay-what-you-want product's code lowers its minimum, and the buyer's own amount
 * must then be at least that discounted minimum (at most $10,000; $0 or from Stripe's $0.50 up); the
 * amount is what they pay, the code's saving is recorded against the minimum. A code that does not
 * apply, or an amount out of bounds, is refused with its reason and nothing is taken.
 * Held uses are not counted here: the checkout itself takes a use, with a conditional update.
 */
export async function decidePurchasePrice(
  db: Database,
  product: PublicProduct,
  choice: BuyerChoice,
  now: Date,
): Promise<PurchasePrice> {
  let discount: PurchasePrice["discount"];
  if (choice.code) {
    const priced = {
      id: product.id,
      sellerId: product.seller.id,
      priceCents: product.priceCents,
      currency: product.currency,
    };
    const evaluation = await evaluateDiscountCode(db, priced, choice.code, now, { countHeldUses: false });
    if (!evaluation.ok)
      throw new AppError("discount_refused", 422, evaluation.message, { reason: evaluation.reason });
    discount = evaluation;
  }
  const amount = checkBuyerAmount(
    product,
    discount?.priceCents ?? product.priceCents,
    choice.amount,
    product.currency,
  );
  if ("problem" in amount) throw new AppError("amount_refused", 422, amount.problem, { field: "amount" });
  return { amountCents: amount.amountCents, ...(discount ? { discount } : {}) };
}

/** A form's or a JSON body's text field, cut to `max` characters; undefined when absent or blank. */
export function textField(body: unknown, name: string, max = 200): string | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  if (typeof value === "number") return String(value);
  return typeof value === "string" && value.trim() !== "" ? value.slice(0, max) : undefined;
}
